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

// readBranches adds to f the branches between the braces at open and
// close that test a variable against a literal and answer with a literal:
// `if (x == 5) return "five";`, `if ("a".equals(x)) kind = 1;`, `case 42:
// return true;`, `case "a" -> "x";`.
func (p *parser) readBranches(f *testscan.Func, open, close int) {
	var braces []int
	for i := open + 1; i < close; i++ {
		t := p.toks[i]
		switch {
		case p.is(i, "{"):
			braces = append(braces, i)
		case p.is(i, "}"):
			if len(braces) > 0 {
				braces = braces[:len(braces)-1]
			}
		case t.Kind != tkIdent:
		case t.Text == "if" && p.is(i+1, "("):
			c := p.match[i+1]
			if c <= i+1 || c >= close {
				continue
			}
			subj, lit, ok := p.literalTest(i+2, c)
			if !ok {
				continue
			}
			if ans := p.literalAnswer(c+1, close); ans != "" {
				f.AddBranch(testscan.Branch{Line: t.Line, Subject: subj, Literal: lit, Answer: ans})
			}
		case t.Text == "case" && len(braces) > 0:
			subj := p.switchSubject(braces[len(braces)-1])
			if subj == "" {
				continue
			}
			lit, next := p.caseLabels(i+1, close)
			if lit == "" {
				continue
			}
			if ans := p.caseAnswer(next, close); ans != "" {
				f.AddBranch(testscan.Branch{Line: t.Line, Subject: subj, Literal: lit, Answer: ans, Case: true})
			}
		}
	}
}

// literalTest reads a condition [from, to) that compares a variable (a name
// or a chain of names) with a literal: `x == lit`, `lit == x`,
// `"lit".equals(x)`, `x.equals("lit")`. A named constant is not a literal,
// nor are null, true, false and "".
func (p *parser) literalTest(from, to int) (subject, lit string, ok bool) {
	op := -1
	for k := from; k < to; k++ {
		switch {
		case p.is(k, "==") && op < 0:
			op = k
		case p.is(k, "==") || p.is(k, "&&") || p.is(k, "||") || p.is(k, "?") || p.is(k, "!="):
			return "", "", false
		case p.is(k, "(") || p.is(k, "["):
			if c := p.match[k]; c > k && c < to {
				k = c
			}
		}
	}
	if op >= 0 {
		if l, ok := branchLiteral(p.toks[op+1 : to]); ok && p.chain(from, op) {
			return joinTokens(p.toks[from:op]), l, true
		}
		if l, ok := branchLiteral(p.toks[from:op]); ok && p.chain(op+1, to) {
			return joinTokens(p.toks[op+1 : to]), l, true
		}
		return "", "", false
	}
	// x.equals("lit") or "lit".equals(x): name . equals ( arg ) ending at to.
	if to-from < 5 || !p.is(to-1, ")") || p.match[to-1] < from+3 {
		return "", "", false
	}
	o := p.match[to-1]
	if !p.is(o-2, ".") || p.at(o-1).Text != "equals" && p.at(o-1).Text != "equalsIgnoreCase" {
		return "", "", false
	}
	recv, arg := p.toks[from:o-2], p.toks[o+1:to-1]
	if l, ok := branchLiteral(arg); ok && p.chain(from, o-2) {
		return joinTokens(recv), l, true
	}
	if l, ok := branchLiteral(recv); ok && p.chain(o+1, to-1) {
		return joinTokens(arg), l, true
	}
	return "", "", false
}

// chain reports whether [from, to) is a name or a chain of names (`kind`,
// `this.mode`, `req.type`), not a constant's NAME.
func (p *parser) chain(from, to int) bool {
	if from >= to || !qualifiedName(p.toks[from:to]) {
		return false
	}
	last := p.toks[to-1].Text
	if last == "null" || last == "true" || last == "false" {
		return false
	}
	return strings.ToUpper(last) != last || strings.ToLower(last) == last
}

// branchLiteral is the text of a string (not ""), char or number literal,
// a number possibly negated.
func branchLiteral(toks []token) (string, bool) {
	if !isLiteral(toks) || toks[len(toks)-1].Kind == tkIdent || toks[0].Text == `""` {
		return "", false
	}
	return joinTokens(toks), true
}

// literalAnswer is the literal a statement starting at k answers with at
// once: `return lit;`, `yield lit;` or `x = lit;` (through an opening
// brace); true and false answer, null does not.
func (p *parser) literalAnswer(k, to int) string {
	for p.is(k, "{") {
		k++
	}
	switch {
	case p.is(k, "return") || p.is(k, "yield"):
		k++
	case p.at(k).Kind == tkIdent:
		j := k
		for p.is(j+1, ".") && p.at(j+2).Kind == tkIdent {
			j += 2
		}
		if !p.is(j+1, "=") {
			return ""
		}
		k = j + 2
	default:
		return ""
	}
	return p.answerAt(k, to)
}

// answerAt is the literal at k when a ';' ends it.
func (p *parser) answerAt(k, to int) string {
	end := k + 1
	if p.is(k, "-") {
		end++
	}
	if end >= to || !p.is(end, ";") || !isLiteral(p.toks[k:end]) || p.is(k, "null") {
		return ""
	}
	return joinTokens(p.toks[k:end])
}

// switchSubject is the variable a switch whose block opens at open
// switches on (`switch (kind) {`), through a cast (`switch ((int) c) {`
// switches on c, as it does once the cast is dropped), "" for any other
// block.
func (p *parser) switchSubject(open int) string {
	if !p.is(open-1, ")") {
		return ""
	}
	o := p.match[open-1]
	if o < 1 || !p.is(o-1, "switch") {
		return ""
	}
	from, to := o+1, open-1
	for n := 0; n < 4 && p.is(from, "(") && p.match[from] > from && p.match[from] < to; n++ {
		if c := p.match[from]; c == to-1 {
			from, to = from+1, c // parentheses around the subject
		} else {
			from = c + 1 // a cast
		}
	}
	if !p.chain(from, to) {
		return ""
	}
	return joinTokens(p.toks[from:to])
}

// caseLabels reads the labels of a case from k (`42`, `"a", "b"`) up to
// its ':' or '->': their texts joined by ", " and the index after the
// colon or arrow; "" when any label is not a literal.
func (p *parser) caseLabels(k, to int) (string, int) {
	var lits []string
	start := k
	for ; k < to; k++ {
		if p.is(k, ",") || p.is(k, ":") || p.is(k, "->") {
			l, ok := branchLiteral(p.toks[start:k])
			if !ok {
				return "", k
			}
			lits = append(lits, l)
			if !p.is(k, ",") {
				return strings.Join(lits, ", "), k + 1
			}
			start = k + 1
			continue
		}
		if k-start > 2 {
			return "", k
		}
	}
	return "", k
}

// caseAnswer is the literal the statements after a case label at k answer
// with: after `case 1: case 2:` labels that share it, `return lit;`,
// `yield lit;` or `x = lit;`; for a rule, `-> lit;` too.
func (p *parser) caseAnswer(k, to int) string {
	for p.is(k, "case") {
		if _, next := p.caseLabels(k+1, to); next > k+1 && p.is(next-1, ":") {
			k = next
			continue
		}
		return ""
	}
	if p.is(k-1, "->") {
		if ans := p.answerAt(k, to); ans != "" {
			return ans
		}
	}
	return p.literalAnswer(k, to)
}
