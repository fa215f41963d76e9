package jsts

import (
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// funcs reads the named functions of a production file (File.Funcs), in
// the order their bodies open: `function f() {`, methods, `const f = (...)
// => {`, each named by its enclosing classes and named functions
// ("Parser.parse", "outer.inner"). A function's exits are its own: those
// of an anonymous callback inside it are left out, since they leave the
// callback. Its literal branches include those of the callbacks inside it.
func (t *tree) funcs() []testscan.Func {
	n := len(t.toks)
	var out []testscan.Func
	at := map[int32]int{}        // a named function's body "{" -> its index in out
	scopes := map[int32]string{} // the body "{" of a named function or a class -> its qualified name
	for i := range t.toks {
		if !t.punct(i, "{") || !t.matched(i, n) {
			continue
		}
		name := t.functionNameAt(i)
		fn := name != ""
		if !fn {
			if name = t.className(i); name == "" {
				continue
			}
		}
		depth := 0
		for p := t.parent[i]; p >= 0 && depth < maxNameDepth; p = t.parent[p] {
			depth++
			if outer, ok := scopes[p]; ok {
				name = outer + "." + name
				break
			}
		}
		scopes[int32(i)] = name
		if fn {
			at[int32(i)] = len(out)
			out = append(out, testscan.Func{Name: name, Line: t.toks[i].Line})
		}
	}
	if len(out) == 0 {
		return nil
	}
	for i := range t.toks {
		if t.kind(i) != tkIdent || t.isMember(i) {
			continue
		}
		switch t.toks[i].Text {
		case "return", "throw":
			if t.punct(i+1, ":") {
				continue // a property named return
			}
			if k, ok := at[t.ownFunction(i, at)]; ok {
				out[k].AddExit(t.exit(i))
			}
		case "if":
			if !t.punct(i+1, "(") || !t.matched(i+1, n) {
				continue
			}
			close := int(t.match[i+1])
			subj, lit, ok := t.literalTest(i+2, close)
			if !ok {
				continue
			}
			if ans := t.literalAnswer(close + 1); ans != "" {
				if k, ok := at[t.namedFunction(i, at)]; ok {
					out[k].AddBranch(testscan.Branch{Line: t.toks[i].Line, Subject: subj, Literal: lit, Answer: ans})
				}
			}
		case "case":
			lit, next, ok := t.literalText(i+1, n)
			if !ok || lit == `""` || !t.punct(next, ":") {
				continue
			}
			subj := t.switchSubject(i)
			if subj == "" {
				continue
			}
			if ans := t.literalAnswer(next + 1); ans != "" {
				if k, ok := at[t.namedFunction(i, at)]; ok {
					out[k].AddBranch(testscan.Branch{Line: t.toks[i].Line, Subject: subj, Literal: lit, Answer: ans, Case: true})
				}
			}
		}
	}
	for k := range out {
		if !testscan.KeepsExits(out[k].Exits) {
			out[k].Exits = nil
		}
	}
	return out
}

// className is the name of the class whose body opens at open (`class
// Name {`, `class Name extends Base {`), "" for any other brace.
func (t *tree) className(open int) string {
	for k := open - 1; k >= 0 && k >= open-16 && t.parent[k] == t.parent[open]; k-- {
		if t.punct(k, "{") || t.punct(k, "}") || t.punct(k, ";") {
			return ""
		}
		if t.ident(k, "class") && !t.isMember(k) && t.kind(k+1) == tkIdent && !t.ident(k+1, "extends") {
			return t.toks[k+1].Text
		}
	}
	return ""
}

// ownFunction is the body "{" of the function a return or throw at i
// leaves: the innermost function around it when that one is named (in
// named), -1 when it is an anonymous one (a callback) or there is none.
func (t *tree) ownFunction(i int, named map[int32]int) int32 {
	depth := 0
	for p := t.parent[i]; p >= 0 && depth < maxNameDepth; p = t.parent[p] {
		depth++
		if !t.punct(int(p), "{") {
			continue
		}
		if _, ok := named[p]; ok {
			return p
		}
		if t.anonymousBody(int(p)) {
			return -1
		}
	}
	return -1
}

// namedFunction is the body "{" of the innermost named function (in
// named) around the token at i, through anonymous callbacks; -1 when there
// is none.
func (t *tree) namedFunction(i int, named map[int32]int) int32 {
	depth := 0
	for p := t.parent[i]; p >= 0 && depth < maxNameDepth; p = t.parent[p] {
		depth++
		if _, ok := named[p]; ok {
			return p
		}
	}
	return -1
}

// anonymousBody reports a brace that opens the body of an arrow function
// or of a function expression without a name.
func (t *tree) anonymousBody(open int) bool {
	if t.punct(open-1, "=>") {
		return true
	}
	if !t.punct(open-1, ")") {
		return false
	}
	o := int(t.match[open-1])
	if o < 1 || o >= open {
		return false
	}
	if t.ident(o-1, "async") {
		o--
	}
	return t.ident(o-1, "function") || t.kind(o-1) == tkIdent && t.ident(o-2, "function")
}

// exit reads the return or throw statement at i.
func (t *tree) exit(i int) testscan.Exit {
	end := t.statementEnd(i+1, len(t.toks))
	if t.toks[i].Text == "throw" {
		e := testscan.Exit{Line: t.toks[i].Line, Kind: testscan.ExitError, Text: t.norm(i, end)}
		if _, stub := t.placeholderThrow(i); stub {
			e.Kind = testscan.ExitOther
		}
		return e
	}
	// A line break after return ends the statement (automatic semicolon
	// insertion): `return\n  x` returns undefined.
	if i+1 < len(t.toks) && t.toks[i+1].Line > t.toks[i].Line {
		end = i + 1
	}
	e := testscan.Exit{Line: t.toks[i].Line, Kind: testscan.ExitOther, Text: t.norm(i, end)}
	switch from := i + 1; {
	case end == from,
		end == from+1 && (t.ident(from, "null") || t.ident(from, "undefined")),
		end == from+1 && (t.kind(from) == tkString || t.kind(from) == tkTemplate) && t.toks[from].val == "",
		end == from+2 && (t.punct(from, "[") && t.punct(from+1, "]") || t.punct(from, "{") && t.punct(from+1, "}")),
		end == from+2 && t.ident(from, "void") && t.kind(from+1) == tkNumber:
		e.Kind = testscan.ExitEmpty
	}
	return e
}

// literalTest reads a condition [from, to) that is `x === lit` or `lit ==
// x` whose x is a variable (a name or a member chain of names): a named
// constant (`x === MAX`) is not a literal.
func (t *tree) literalTest(from, to int) (subject, lit string, ok bool) {
	op := -1
	for k := from; k < to; k = t.skip(k, to) {
		if t.punct(k, "===") || t.punct(k, "==") {
			if op >= 0 {
				return "", "", false
			}
			op = k
		}
	}
	if op < 0 {
		return "", "", false
	}
	if l, next, ok := t.literalText(op+1, to); ok && next == to {
		subject, lit = t.memberChain(from, op), l
	} else if l, next, ok := t.literalText(from, op); ok && next == op {
		subject, lit = t.memberChain(op+1, to), l
	}
	return subject, lit, subject != "" && lit != "" && lit != `""`
}

// memberChain is the text of [from, to) when it is a name or a member
// chain of names (`kind`, `this.opts.mode`), "" otherwise.
func (t *tree) memberChain(from, to int) string {
	if from >= to || (to-from)%2 == 0 {
		return ""
	}
	for k := from; k < to; k++ {
		if (k-from)%2 == 0 {
			if t.kind(k) != tkIdent || constKeywords[t.toks[k].Text] || jsKeywords[t.toks[k].Text] {
				return ""
			}
		} else if !t.punct(k, ".") && !t.punct(k, "?.") {
			return ""
		}
	}
	return t.norm(from, to)
}

// switchSubject is the variable a case at i switches on (`switch (kind)
// {`), "" when the switch is over anything else.
func (t *tree) switchSubject(i int) string {
	p := int(t.parent[i])
	if p < 1 || !t.punct(p, "{") || !t.punct(p-1, ")") {
		return ""
	}
	o := int(t.match[p-1])
	if o < 1 || o >= p-1 || !t.ident(o-1, "switch") {
		return ""
	}
	return t.memberChain(o+1, p-1)
}

// literalAnswer is the literal a branch whose statement starts at k
// answers with at once: `return lit` or `x = lit` (through an opening
// brace), "" otherwise.
func (t *tree) literalAnswer(k int) string {
	for t.punct(k, "{") || t.ident(k, "case") {
		if t.punct(k, "{") {
			k++
			continue
		}
		// `case 1: case 2: return x`: the next label shares the answer.
		_, next, ok := t.literalText(k+1, len(t.toks))
		if !ok || !t.punct(next, ":") {
			return ""
		}
		k = next + 1
	}
	switch {
	case t.ident(k, "return"):
		k++
	case t.kind(k) == tkIdent:
		j := k
		for t.punct(j+1, ".") && t.kind(j+2) == tkIdent {
			j += 2
		}
		if !t.punct(j+1, "=") || t.memberChain(k, j+1) == "" {
			return ""
		}
		k = j + 2
	default:
		return ""
	}
	if t.ident(k, "true") || t.ident(k, "false") {
		if t.continuesOperand(k + 1) {
			return ""
		}
		return t.toks[k].Text
	}
	lit, next, ok := t.literalText(k, len(t.toks))
	if !ok || t.continuesOperand(next) || t.punct(next, "?") || t.punct(next, "&&") || t.punct(next, "||") {
		return ""
	}
	return lit
}
