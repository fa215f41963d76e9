package java

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// funcs reads the methods and constructors of a production file
// (File.Funcs), in source order, each named by its classes ("Parser.parse",
// "Outer.Inner.parse"); overloads share the name, as TypeScript's do. A
// method's exits are its own: the returns of a lambda, an anonymous class
// or a local class inside it leave those. Its literal branches include
// theirs, as a JavaScript function's include its callbacks'.
func (p *parser) funcs() []testscan.Func {
	var out []testscan.Func
	for _, m := range p.methods {
		if p.isTest(m) {
			continue
		}
		f := testscan.Func{Name: m.owner.qual + "." + m.name, Line: p.toks[m.nameAt].Line, Returns: p.resultType(m)}
		p.readExits(&f, m.bodyOpen, m.bodyClose)
		if !testscan.KeepsExits(f.Exits) {
			f.Exits = nil
		}
		p.readBranches(&f, m.bodyOpen, m.bodyClose)
		out = append(out, f)
	}
	return out
}

// resultType is the type a method declares before its name (`int`,
// `Optional<List<T>>`, `String[]`), "" for a constructor.
func (p *parser) resultType(m *methodDecl) string {
	depth := 0
	for k, n := m.nameAt-1, 0; k >= m.start && n < 64; k, n = k-1, n+1 {
		t := p.toks[k]
		switch {
		case p.is(k, ">"):
			depth++
		case p.is(k, "<"):
			depth--
		case depth == 0 && t.Kind == tkIdent && !p.is(k-1, "."):
			if modifiers[t.Text] {
				return ""
			}
			return oneLine(joinTokens(p.toks[k:m.nameAt]))
		}
	}
	return ""
}

// readExits adds to f the return and throw statements between the braces
// at open and close that leave the method itself.
func (p *parser) readExits(f *testscan.Func, open, close int) {
	for i := open + 1; i < close; i++ {
		t := p.toks[i]
		switch {
		case p.is(i, "{") && p.foreignBlock(i):
			if c := p.match[i]; c > i {
				i = c
				continue
			}
			return
		case t.Kind == tkIdent && (t.Text == "return" || t.Text == "throw"):
			end := p.statementEnd(i+1, close)
			e := testscan.Exit{Line: t.Line, Text: t.Text}
			if end > i+1 {
				e.Text += " " + oneLine(joinTokens(p.toks[i+1:end]))
			}
			switch {
			case t.Text == "return":
				e.Kind = testscan.ExitOther
				if emptyValue(p.toks[i+1 : end]) {
					e.Kind = testscan.ExitEmpty
				}
			case isPlaceholderThrow(p.toks, p.match, i) || testscan.DeclinesOperation(thrownClass(p.toks[i+1:end])):
				// A stub, which any body improves on, or an operation the
				// type does not provide: giving it a body is no swallowed
				// failure.
				e.Kind = testscan.ExitOther
			default:
				e.Kind = testscan.ExitError
			}
			f.AddExit(e)
			i = end
		}
	}
}

func isPlaceholderThrow(toks []token, match []int, i int) bool {
	if i+1 >= len(toks) || toks[i+1].Text != "new" {
		return false
	}
	_, ok := placeholderThrow(toks, match, i)
	return ok
}

// thrownClass is the last name of the class a throw's `new X.Y(..)`
// makes, "" for any other throw.
func thrownClass(expr []token) string {
	if len(expr) < 2 || expr[0].Text != "new" || expr[1].Kind != tkIdent {
		return ""
	}
	k := 1
	for k+2 < len(expr) && expr[k+1].Text == "." && expr[k+2].Kind == tkIdent {
		k += 2
	}
	return expr[k].Text
}

// statementEnd is the index of the ';' that ends the statement starting at
// from, groups skipped, or of the closer that ends it first (or to).
func (p *parser) statementEnd(from, to int) int {
	for k := from; k < to; k++ {
		switch {
		case p.is(k, ";"), p.is(k, "}"), p.is(k, ")"), p.is(k, "]"):
			return k
		case p.is(k, "(") || p.is(k, "[") || p.is(k, "{"):
			c := p.match[k]
			if c <= k || c >= to {
				return to
			}
			k = c
		}
	}
	return to
}

// foreignBlock reports whether the brace at open starts the body of
// something inside a method that its returns leave instead of the method:
// a lambda (`x -> {`), an anonymous class (`new Runnable() {`), a local
// class (`class Local {`). The blocks of if, for, while, switch (and the
// `case X -> {` of its rules), try, catch, finally, do, else and
// synchronized are the method's own.
func (p *parser) foreignBlock(open int) bool {
	prev := open - 1
	switch {
	case p.is(prev, "->"):
		return !p.switchRule(prev)
	case p.is(prev, ")"):
		o := p.match[prev]
		if o < 1 {
			return false
		}
		switch p.at(o - 1).Text {
		case "if", "while", "for", "switch", "catch", "synchronized", "try":
			return false
		}
		return true // new X(...) {, or a method of a local class
	}
	// `class Local {`, `enum E {`, `record R(int x) {`: a type keyword
	// earlier in the same statement.
	for k, n := prev, 0; k >= 0 && n < 32; k, n = k-1, n+1 {
		t := p.toks[k]
		switch {
		case p.is(k, ";") || p.is(k, "{") || p.is(k, "}"):
			return false
		case p.is(k, ")") || p.is(k, "]"):
			if p.match[k] < 0 || p.match[k] > k {
				return false
			}
			k = p.match[k]
		case p.is(k, "(") || p.is(k, "["):
			return false
		case t.Kind == tkIdent && (t.Text == "class" || t.Text == "interface" || t.Text == "enum" || t.Text == "record"):
			return !p.is(k-1, ".") // Foo.class is a literal
		}
	}
	return false
}

// switchRule reports whether the arrow at k ends the labels of a switch
// rule (`case 1, 2 ->`, `default ->`) rather than a lambda's parameters.
func (p *parser) switchRule(k int) bool {
	for j, n := k-1, 0; j >= 0 && n < 64; j, n = j-1, n+1 {
		t := p.toks[j]
		switch {
		case t.Kind == tkIdent && (t.Text == "case" || t.Text == "default"):
			return true
		case p.is(j, ")") || p.is(j, "]") || p.is(j, "}"):
			if p.match[j] < 0 || p.match[j] > j {
				return false
			}
			j = p.match[j]
		case p.is(j, ";") || p.is(j, "(") || p.is(j, "[") || p.is(j, "{") || p.is(j, "->") || p.is(j, "="):
			return false
		}
	}
	return false
}

// emptyValue reports whether the expression of `return expr;` is nothing
// in particular: none (a bare return), null, "", an empty Optional,
// collection, stream or array, or an EMPTY constant of commons-lang
// (StringUtils.EMPTY, ArrayUtils.EMPTY_OBJECT_ARRAY, EMPTY within
// StringUtils). Zero and false are
// values a method answers with, as in the other languages.
func emptyValue(expr []token) bool {
	n := len(expr)
	switch {
	case n == 0:
		return true
	case n == 1:
		t := expr[0]
		return t.Kind == tkIdent && (t.Text == "null" || t.Text == "EMPTY" || strings.HasPrefix(t.Text, "EMPTY_")) ||
			t.Kind == tkString && (t.Text == `""` || strings.Trim(t.Text, "\" \t\r\n") == "")
	case expr[n-1].Kind == tkIdent && expr[n-2].Text == ".":
		// StringUtils.EMPTY, Collections.EMPTY_LIST
		name := expr[n-1].Text
		return (name == "EMPTY" || strings.HasPrefix(name, "EMPTY_")) && qualifiedName(expr[:n-2])
	case expr[0].Kind == tkIdent && expr[0].Text == "new":
		return emptyNew(expr[1:])
	case n >= 5 && expr[n-1].Text == ")" && expr[n-2].Text == "(" && expr[n-3].Kind == tkIdent:
		// Optional.empty(), Collections.emptyList(), List.of(),
		// Collections.<String>emptyList(), Optional.absent()
		name := expr[n-3].Text
		if !(name == "empty" || name == "absent" || name == "of" || strings.HasPrefix(name, "empty") && len(name) > 5 && name[5] >= 'A' && name[5] <= 'Z') {
			return false
		}
		q := expr[:n-3]
		if k := len(q) - 1; k > 0 && q[k].Text == ">" {
			for k >= 0 && q[k].Text != "<" {
				k--
			}
			if k < 1 {
				return false
			}
			q = q[:k]
		}
		return len(q) >= 2 && q[len(q)-1].Text == "." && qualifiedName(q[:len(q)-1])
	}
	return false
}

// emptyNew reports whether the tokens after `new` make an empty collection
// (`ArrayList<>()`, `HashMap<K, V>()`) or array (`String[0]`, `int[] {}`).
func emptyNew(toks []token) bool {
	n := len(toks)
	if n < 3 || toks[0].Kind != tkIdent {
		return false
	}
	switch {
	case toks[n-3].Text == "[" && toks[n-2].Text == "0" && toks[n-1].Text == "]":
		return true
	case n >= 4 && toks[n-4].Text == "]" && toks[n-2].Text == "{" && toks[n-1].Text == "}":
		return true
	case toks[n-2].Text == "(" && toks[n-1].Text == ")":
		k := 0
		for k+2 < n && toks[k+1].Text == "." && toks[k+2].Kind == tkIdent {
			k += 2
		}
		name := toks[k].Text
		for _, suffix := range []string{"List", "Set", "Map", "Queue", "Deque", "Collection"} {
			if strings.HasSuffix(name, suffix) {
				return true
			}
		}
	}
	return false
}

// qualifiedName reports whether toks are a name or a dotted chain of names.
func qualifiedName(toks []token) bool {
	if len(toks)%2 == 0 {
		return false
	}
	for k, t := range toks {
		if k%2 == 0 && t.Kind != tkIdent || k%2 == 1 && t.Text != "." {
			return false
		}
	}
	return true
}
