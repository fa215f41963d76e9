package testscan

import (
	"strconv"
	"strings"
)

// constFalse reports whether a condition (an if's, without its keyword) is
// made only of literals and always false: `1 == 2`, `"a" === "b"`, `false
// && ready`, `False and x`, `not True`, `0 > 1`, `!(1 < 2)`. Anything it
// cannot fold (a name, a call) is unknown, and `x && false` is false
// whatever x is. It never guesses: an unknown condition is not false. In
// Python, TYPE_CHECKING is false and `__name__ == "__main__"` never holds in
// a module a test runner imports.
func constFalse(cond string) bool {
	toks, ok := condTokens(cond)
	if !ok || len(toks) == 0 {
		return false
	}
	p := &condParser{toks: toks}
	v := p.or()
	return p.i == len(p.toks) && v.known && !v.truthy()
}

// condValue is a folded value: known only for literals and what they make.
type condValue struct {
	known bool
	kind  byte // 'b' bool, 'n' number, 's' string, 'z' null
	b     bool
	n     float64
	s     string
}

func (v condValue) truthy() bool {
	switch v.kind {
	case 'b':
		return v.b
	case 'n':
		return v.n != 0
	case 's':
		return v.s != ""
	}
	return false
}

func boolValue(b bool) condValue { return condValue{known: true, kind: 'b', b: b} }

type condParser struct {
	toks []string
	i    int
}

func (p *condParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

// or folds a || b: false when both are known false, true when either is
// known true.
func (p *condParser) or() condValue {
	v := p.and()
	for p.peek() == "||" || p.peek() == "or" {
		p.i++
		w := p.and()
		switch {
		case v.known && v.truthy() || w.known && w.truthy():
			v = boolValue(true)
		case v.known && w.known:
			v = boolValue(false)
		default:
			v = condValue{}
		}
	}
	return v
}

// and folds a && b: false when either is known false.
func (p *condParser) and() condValue {
	v := p.not()
	for p.peek() == "&&" || p.peek() == "and" {
		p.i++
		w := p.not()
		switch {
		case v.known && !v.truthy() || w.known && !w.truthy():
			v = boolValue(false)
		case v.known && w.known:
			v = boolValue(true)
		default:
			v = condValue{}
		}
	}
	return v
}

func (p *condParser) not() condValue {
	if p.peek() == "!" || p.peek() == "not" {
		p.i++
		v := p.not()
		if !v.known {
			return v
		}
		return boolValue(!v.truthy())
	}
	return p.compare()
}

// compare folds a comparison of two known values of one kind.
func (p *condParser) compare() condValue {
	v := p.atom()
	switch op := p.peek(); op {
	case "==", "===", "!=", "!==", "<", "<=", ">", ">=", "is":
		p.i++
		if op == "is" && p.peek() == "not" {
			p.i++
			op = "is not"
		}
		w := p.atom()
		if !v.known || !w.known || v.kind != w.kind && !(v.kind == 'z' || w.kind == 'z') {
			return condValue{}
		}
		eq := v.kind == w.kind && v.b == w.b && v.n == w.n && v.s == w.s
		switch op {
		case "==", "===", "is":
			return boolValue(eq)
		case "!=", "!==", "is not":
			return boolValue(!eq)
		}
		if v.kind != w.kind || v.kind == 'b' || v.kind == 'z' {
			return condValue{}
		}
		less, greater := v.n < w.n, v.n > w.n
		if v.kind == 's' {
			less, greater = v.s < w.s, v.s > w.s
		}
		switch op {
		case "<":
			return boolValue(less)
		case "<=":
			return boolValue(!greater)
		case ">":
			return boolValue(greater)
		default:
			return boolValue(!less)
		}
	}
	return v
}

func (p *condParser) atom() condValue {
	t := p.peek()
	if t == "" {
		return condValue{}
	}
	p.i++
	if t == "(" {
		v := p.or()
		if p.peek() != ")" {
			p.i = len(p.toks) + 1 // unbalanced: nothing folds
			return condValue{}
		}
		p.i++
		return v
	}
	switch t {
	case "true", "True":
		return boolValue(true)
	case "false", "False":
		return boolValue(false)
	case "nil", "null", "None", "undefined":
		return condValue{known: true, kind: 'z'}
	}
	if c := t[0]; c == '"' || c == '\'' || c == '`' {
		return condValue{known: true, kind: 's', s: t[1 : len(t)-1]}
	}
	if n, err := strconv.ParseFloat(strings.ReplaceAll(t, "_", ""), 64); err == nil {
		return condValue{known: true, kind: 'n', n: n}
	}
	if t == "-" {
		v := p.atom()
		if v.known && v.kind == 'n' {
			v.n = -v.n
			return v
		}
		return condValue{}
	}
	if isWordByte(t[0]) {
		// A name, and what follows it: .field, (args), [index]; unknown,
		// but for Python's constants of a module a test runner imports:
		// TYPE_CHECKING is false at run time, and __name__ is never
		// "__main__".
		name, plain := t, true
		for {
			switch p.peek() {
			case ".":
				if p.i+1 < len(p.toks) {
					name += "." + p.toks[p.i+1]
				}
				p.i += 2
				continue
			case "(", "[":
				plain = false
				p.skipGroup()
				continue
			}
			break
		}
		switch {
		case plain && (name == "TYPE_CHECKING" || name == "typing.TYPE_CHECKING"):
			return boolValue(false)
		case plain && name == "__name__":
			return condValue{known: true, kind: 's', s: "\x00an imported module"}
		}
		return condValue{}
	}
	p.i = len(p.toks) + 1 // an operator where a value belongs: nothing folds
	return condValue{}
}

// skipGroup moves past the bracketed group that starts at the current
// token.
func (p *condParser) skipGroup() {
	depth := 0
	for ; p.i < len(p.toks); p.i++ {
		switch p.toks[p.i] {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				p.i++
				return
			}
		}
	}
}

// condTokens splits a condition into literals, words and operators; ok is
// false for text it does not read (an unterminated string, a string with
// an escape or an interpolation).
func condTokens(c string) ([]string, bool) {
	var out []string
	for i := 0; i < len(c); {
		ch := c[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
			i++
		case strings.HasPrefix(c[i:], "/*"):
			// A comment: the name a constant was read from.
			j := strings.Index(c[i+2:], "*/")
			if j < 0 {
				return nil, false
			}
			i += j + 4
		case ch == '"' || ch == '\'' || ch == '`':
			j := strings.IndexByte(c[i+1:], ch)
			if j < 0 {
				return nil, false
			}
			s := c[i : i+j+2]
			if strings.ContainsAny(s[1:len(s)-1], "\\$") {
				return nil, false
			}
			out = append(out, s)
			i += j + 2
		case isWordByte(ch):
			j := i
			for j < len(c) && (isWordByte(c[j]) || c[j] == '.' && j+1 < len(c) && c[j+1] >= '0' && c[j+1] <= '9') {
				j++
			}
			out = append(out, c[i:j])
			i = j
		default:
			op := string(ch)
			for _, o := range []string{"===", "!==", "==", "!=", "<=", ">=", "&&", "||"} {
				if strings.HasPrefix(c[i:], o) {
					op = o
					break
				}
			}
			out = append(out, op)
			i += len(op)
		}
	}
	return out, true
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
