package ci

import (
	"strconv"
	"strings"
)

// A GitHub Actions `if:` decides whether a job or a step runs. The gate
// runs on pull requests, so a test step that runs only on pushes (`if:
// github.event_name == 'push'`), on a branch (`github.ref ==
// 'refs/heads/main'`), on tags or after a failure gates nothing there.
// offOnPullRequest evaluates a condition for a pull_request event: what the
// event fixes (its name, that github.ref is refs/pull/N/merge, the status
// functions of a run where every earlier step passed) is known; anything
// else (matrix values, inputs, outputs, the pull request's own fields) is
// unknown, and a condition that depends on it is not called off.

// ghVal is a value of the expression language: known (a string, number,
// bool or null) or unknown; a string known only by its prefix (github.ref
// on a pull request) is kind vPrefix.
type ghVal struct {
	kind ghKind
	s    string
	n    float64
	b    bool
}

type ghKind int

const (
	vUnknown ghKind = iota
	vString
	vNumber
	vBool
	vNull
	vPrefix
)

// offOnPullRequest reports whether an `if:` condition (with or without
// ${{ }}) is false for every pull_request run, and so switches its job or
// step off where the gate runs. An empty condition, or one that does not
// parse, is not off.
func offOnPullRequest(cond string) bool {
	c := strings.TrimSpace(cond)
	if c == "" {
		return false
	}
	if strings.HasPrefix(c, "${{") && strings.HasSuffix(c, "}}") && strings.Count(c, "${{") == 1 {
		c = strings.TrimSpace(c[3 : len(c)-2])
	} else if strings.Contains(c, "${{") {
		return false // a string with expressions in it: truthy, or unknown
	}
	p := &ghParser{src: c}
	v, ok := p.or()
	p.space()
	if !ok || p.i != len(p.src) {
		return false
	}
	t, known := v.truth()
	return known && !t
}

// truth is a value's truthiness, and whether it is known.
func (v ghVal) truth() (bool, bool) {
	switch v.kind {
	case vString:
		return v.s != "", true
	case vNumber:
		return v.n != 0, true
	case vBool:
		return v.b, true
	case vNull:
		return false, true
	case vPrefix:
		return true, true // a non-empty string
	}
	return false, false
}

type ghParser struct {
	src string
	i   int
}

func (p *ghParser) space() {
	for p.i < len(p.src) && (p.src[p.i] == ' ' || p.src[p.i] == '\t' || p.src[p.i] == '\n' || p.src[p.i] == '\r') {
		p.i++
	}
}

func (p *ghParser) eat(op string) bool {
	p.space()
	if strings.HasPrefix(p.src[p.i:], op) {
		p.i += len(op)
		return true
	}
	return false
}

func (p *ghParser) or() (ghVal, bool) {
	v, ok := p.and()
	for ok && p.eat("||") {
		w, ok2 := p.and()
		if !ok2 {
			return ghVal{}, false
		}
		v = ghOr(v, w)
	}
	return v, ok
}

func (p *ghParser) and() (ghVal, bool) {
	v, ok := p.cmp()
	for ok && p.eat("&&") {
		w, ok2 := p.cmp()
		if !ok2 {
			return ghVal{}, false
		}
		v = ghAnd(v, w)
	}
	return v, ok
}

// ghOr and ghAnd return one of their operands, as the runner does, or
// unknown when the known one does not decide.
func ghOr(a, b ghVal) ghVal {
	if t, ok := a.truth(); ok {
		if t {
			return a
		}
		return b
	}
	if t, ok := b.truth(); ok && t {
		return b
	}
	return ghVal{}
}

func ghAnd(a, b ghVal) ghVal {
	if t, ok := a.truth(); ok {
		if !t {
			return a
		}
		return b
	}
	if t, ok := b.truth(); ok && !t {
		return b
	}
	return ghVal{}
}

func (p *ghParser) cmp() (ghVal, bool) {
	v, ok := p.unary()
	if !ok {
		return v, false
	}
	for _, op := range []string{"==", "!=", "<=", ">=", "<", ">"} {
		if p.eat(op) {
			w, ok := p.unary()
			if !ok {
				return ghVal{}, false
			}
			return ghCompare(op, v, w), true
		}
	}
	return v, true
}

// ghCompare compares as the runner does: strings without regard to case;
// a prefix-only string is unequal to a string it cannot start.
func ghCompare(op string, a, b ghVal) ghVal {
	if op == "==" || op == "!=" {
		eq, known := ghEqual(a, b)
		if !known {
			return ghVal{}
		}
		return ghVal{kind: vBool, b: eq == (op == "==")}
	}
	if a.kind == vNumber && b.kind == vNumber {
		r := false
		switch op {
		case "<":
			r = a.n < b.n
		case "<=":
			r = a.n <= b.n
		case ">":
			r = a.n > b.n
		case ">=":
			r = a.n >= b.n
		}
		return ghVal{kind: vBool, b: r}
	}
	return ghVal{}
}

func ghEqual(a, b ghVal) (eq, known bool) {
	if a.kind == vPrefix && b.kind == vString {
		a, b = b, a
	}
	switch {
	case a.kind == vUnknown || b.kind == vUnknown:
		return false, false
	case a.kind == vString && b.kind == vPrefix:
		if !strings.HasPrefix(strings.ToLower(a.s), strings.ToLower(b.s)) {
			return false, true
		}
		return false, false
	case a.kind == vPrefix || b.kind == vPrefix:
		return false, false
	case a.kind == vString && b.kind == vString:
		return strings.EqualFold(a.s, b.s), true
	case a.kind == b.kind:
		return a == b, true
	case a.kind == vNull || b.kind == vNull:
		return false, true
	}
	return false, false // mixed kinds convert to numbers: not modelled
}

func (p *ghParser) unary() (ghVal, bool) {
	if p.eat("!") {
		v, ok := p.unary()
		if !ok {
			return v, false
		}
		if t, known := v.truth(); known {
			return ghVal{kind: vBool, b: !t}, true
		}
		return ghVal{}, true
	}
	return p.primary()
}

func (p *ghParser) primary() (ghVal, bool) {
	p.space()
	if p.i >= len(p.src) {
		return ghVal{}, false
	}
	switch c := p.src[p.i]; {
	case c == '(':
		p.i++
		v, ok := p.or()
		if !ok || !p.eat(")") {
			return ghVal{}, false
		}
		return v, true
	case c == '\'':
		var b strings.Builder
		for p.i++; p.i < len(p.src); p.i++ {
			if p.src[p.i] == '\'' {
				if p.i+1 < len(p.src) && p.src[p.i+1] == '\'' {
					b.WriteByte('\'')
					p.i++
					continue
				}
				p.i++
				return ghVal{kind: vString, s: b.String()}, true
			}
			b.WriteByte(p.src[p.i])
		}
		return ghVal{}, false
	case c == '-' || c >= '0' && c <= '9':
		j := p.i + 1
		for j < len(p.src) && (p.src[j] >= '0' && p.src[j] <= '9' || p.src[j] == '.' || p.src[j] == 'x' || p.src[j] >= 'a' && p.src[j] <= 'f') {
			j++
		}
		n, err := strconv.ParseFloat(p.src[p.i:j], 64)
		if err != nil {
			return ghVal{}, false
		}
		p.i = j
		return ghVal{kind: vNumber, n: n}, true
	}
	j := p.i
	for j < len(p.src) && (IsIdentByte(p.src[j]) || p.src[j] == '.' || p.src[j] == '-' || p.src[j] == '*') {
		j++
	}
	if j == p.i {
		return ghVal{}, false
	}
	name := p.src[p.i:j]
	p.i = j
	// Index expressions (github.event['x'], matrix[env.K]) read as unknown.
	for p.i < len(p.src) && p.src[p.i] == '[' {
		depth := 0
		for ; p.i < len(p.src); p.i++ {
			if p.src[p.i] == '[' {
				depth++
			} else if p.src[p.i] == ']' {
				depth--
				if depth == 0 {
					p.i++
					break
				}
			}
		}
		name += "[]"
	}
	p.space()
	if p.i < len(p.src) && p.src[p.i] == '(' {
		p.i++
		var args []ghVal
		if !p.eat(")") {
			for {
				v, ok := p.or()
				if !ok {
					return ghVal{}, false
				}
				args = append(args, v)
				if p.eat(")") {
					break
				}
				if !p.eat(",") {
					return ghVal{}, false
				}
			}
		}
		return ghCall(strings.ToLower(name), args), true
	}
	return ghContext(name), true
}

// ghCall evaluates the functions a condition uses: the status functions
// for a run whose earlier steps passed, and the string tests on values the
// event fixes.
func ghCall(name string, args []ghVal) ghVal {
	switch name {
	case "success", "always":
		return ghVal{kind: vBool, b: true}
	case "failure", "cancelled":
		return ghVal{kind: vBool, b: false}
	case "startswith", "endswith", "contains":
		if len(args) != 2 || args[1].kind != vString {
			return ghVal{}
		}
		hay, needle := args[0], strings.ToLower(args[1].s)
		switch hay.kind {
		case vString:
			h := strings.ToLower(hay.s)
			r := map[string]bool{"startswith": strings.HasPrefix(h, needle), "endswith": strings.HasSuffix(h, needle), "contains": strings.Contains(h, needle)}[name]
			return ghVal{kind: vBool, b: r}
		case vPrefix:
			if name == "startswith" {
				pre := strings.ToLower(hay.s)
				switch {
				case strings.HasPrefix(pre, needle):
					return ghVal{kind: vBool, b: true}
				case !strings.HasPrefix(needle, pre):
					return ghVal{kind: vBool, b: false}
				}
			}
		}
	}
	return ghVal{}
}

// ghContext is what a pull_request run knows of a context value.
func ghContext(name string) ghVal {
	switch strings.ToLower(name) {
	case "true":
		return ghVal{kind: vBool, b: true}
	case "false":
		return ghVal{kind: vBool, b: false}
	case "null":
		return ghVal{kind: vNull}
	case "github.event_name":
		return ghVal{kind: vString, s: "pull_request"}
	case "github.ref":
		return ghVal{kind: vPrefix, s: "refs/pull/"}
	case "github.ref_type":
		return ghVal{kind: vString, s: "branch"}
	}
	return ghVal{}
}

// IsIdentByte reports whether b may be part of an identifier (of Go,
// JavaScript, Java or an expression's property name: letters, digits, _ and
// $).
func IsIdentByte(b byte) bool {
	return b == '_' || b == '$' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}
