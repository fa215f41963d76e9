package python

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// funcs reads the functions of a production module (File.Funcs), named
// by their classes and enclosing functions ("Parser.parse", "outer.inner"),
// in source order. Test files and stubs have none.
func (m *module) funcs() []testscan.Func {
	if m.isTest || m.stub {
		return nil
	}
	var out []testscan.Func
	var visit func(body []*stmt, prefix string, depth int)
	visit = func(body []*stmt, prefix string, depth int) {
		if depth > maxFuncDepth {
			return
		}
		for _, s := range body {
			switch {
			case s.isDef():
				name := s.defName()
				if name == "" {
					continue
				}
				f := testscan.Func{Name: prefix + name, Line: s.line}
				var nested []*stmt
				if readFuncBody(&f, s.body, "", &nested, 0) {
					// A generator's bare return ends its items, as
					// StopIteration did: no result is made up.
					for k, e := range f.Exits {
						if e.Kind == testscan.ExitEmpty && e.Text == "return" {
							f.Exits[k].Kind = testscan.ExitOther
						}
					}
				}
				if !testscan.KeepsExits(f.Exits) {
					f.Exits = nil
				}
				out = append(out, f)
				visit(nested, f.Name+".", depth+1)
			case s.isClass():
				if name := s.defName(); name != "" {
					visit(s.body, prefix+name+".", depth+1)
				}
			case s.header:
				visit(s.body, prefix, depth+1)
			}
		}
	}
	visit(m.root.body, "", 0)
	return out
}

// maxFuncDepth bounds the nesting funcs and readFuncBody descend, so that
// deeply indented input stays cheap.
const maxFuncDepth = 64

// readFuncBody reads the statements of a function's body into f: its own
// exits and literal branches. Nested defs and classes are left to nested,
// to be read as functions of their own. subject is the subject of the
// match statement whose cases body holds ("" outside one). It reports
// whether the body yields (the function is a generator).
func readFuncBody(f *testscan.Func, body []*stmt, subject string, nested *[]*stmt, depth int) (yields bool) {
	if depth > maxFuncDepth {
		return false
	}
	for _, s := range body {
		if !s.isDef() && !s.isClass() && !yields {
			for _, t := range s.toks {
				if t.kind == tkName && t.text == "yield" {
					yields = true
					break
				}
			}
		}
		if s.isDef() || s.isClass() {
			*nested = append(*nested, s)
			continue
		}
		switch kw := s.tok(0); {
		case !s.header && kw == "return":
			f.AddExit(testscan.Exit{Line: s.line, Kind: returnKind(s.toks[1:]), Text: plainText(s.toks)})
		case !s.header && kw == "raise":
			f.AddExit(testscan.Exit{Line: s.line, Kind: raiseKind(s.toks[1:]), Text: plainText(s.toks)})
		case s.header && (kw == "if" || kw == "elif"):
			if subj, lit, ok := literalTest(s.toks[1:]); ok {
				if ans := literalAnswer(s.body); ans != "" {
					f.AddBranch(testscan.Branch{Line: s.line, Subject: subj, Literal: lit, Answer: ans})
				}
			}
		case s.header && kw == "case" && subject != "":
			if lit := casePattern(s.toks[1:]); lit != "" {
				if ans := literalAnswer(s.body); ans != "" {
					f.AddBranch(testscan.Branch{Line: s.line, Subject: subject, Literal: lit, Answer: ans, Case: true})
				}
			}
		}
		if s.header {
			inner := ""
			if s.tok(0) == "match" {
				inner = dotted(stripParens(s.toks[1:]))
			}
			if readFuncBody(f, s.body, inner, nested, depth+1) {
				yields = true
			}
		}
	}
	return yields
}

// returnKind is how `return expr` leaves: empty for a bare return, None,
// [], {}, "" and b""; other for anything else.
func returnKind(expr []token) testscan.ExitKind {
	if len(expr) == 0 {
		return testscan.ExitEmpty
	}
	v := evalLiteral(expr, nil)
	switch {
	case v.kind == vConst && v.canon == "None",
		(v.kind == vStr || v.kind == vBytes) && v.falsy,
		v.kind == vOther && v.falsy,
		v.kind == vSeq && v.falsy && !v.tuple:
		return testscan.ExitEmpty
	}
	return testscan.ExitOther
}

// raiseKind is how `raise expr` leaves: an error, unless it raises
// NotImplementedError or says the code is not written (a stub, which any
// body improves on) or ends a generator (StopIteration, which PEP 479 turns
// into a return).
func raiseKind(expr []token) testscan.ExitKind {
	if len(expr) > 0 && expr[0].kind == tkName {
		name := expr[0].text
		for k := 1; k+1 < len(expr) && isOp(expr[k], ".") && expr[k+1].kind == tkName; k += 2 {
			name = expr[k+1].text
		}
		switch name {
		case "NotImplementedError", "NotImplemented", "StopIteration", "StopAsyncIteration":
			return testscan.ExitOther
		}
	}
	for _, t := range expr {
		if t.kind == tkString {
			if testscan.PlaceholderMessage(parseStringToken(t.text).value()) {
				return testscan.ExitOther
			}
			break // the message is the first string
		}
	}
	return testscan.ExitError
}

// literalTest reads a condition `x == lit` or `lit == x` whose x is a
// variable (a dotted name); a named constant is not a literal.
func literalTest(cond []token) (subject, lit string, ok bool) {
	parts := splitTop(stripParens(cond), "==")
	if len(parts) != 2 {
		return "", "", false
	}
	x, y := stripParens(parts[0]), parts[1]
	if branchLiteral(x) != "" {
		x, y = stripParens(y), x
	}
	subject, lit = dotted(x), branchLiteral(y)
	switch subject {
	case "True", "False", "None":
		return "", "", false
	}
	return subject, lit, subject != "" && lit != ""
}

// branchLiteral is the canonical text of a string, bytes or number literal
// other than "" (which a guard compares with more often than a special
// case does); "" for anything else.
func branchLiteral(toks []token) string {
	if len(toks) == 0 || toks[0].kind != tkString && toks[0].kind != tkNumber && !isOp(toks[0], "-") && !isOp(toks[0], "(") {
		return ""
	}
	v := evalLiteral(toks, nil)
	if !isScalar(v) || v.kind != vNum && v.falsy {
		return ""
	}
	return v.canon
}

// casePattern is the literal pattern of a match case (`case 5:`, `case "a"
// | "b":`), its alternatives joined by ", "; "" when any part is not a
// literal or the case has a guard.
func casePattern(pattern []token) string {
	if len(splitBool(pattern, "if")) > 1 {
		return ""
	}
	alts := splitTop(pattern, "|")
	lits := make([]string, 0, len(alts))
	for _, alt := range alts {
		lit := branchLiteral(alt)
		if lit == "" {
			return ""
		}
		lits = append(lits, lit)
	}
	return strings.Join(lits, ", ")
}

// literalAnswer is the literal a block answers with at once: its first
// statement returns a literal (`return 28`, the first of `return 28,
// None`) or assigns one to a name (`kind = "a"`, `self.kind = "a"`); ""
// otherwise. True and False answer; None does not (that is no answer).
func literalAnswer(body []*stmt) string {
	if len(body) == 0 || body[0].header {
		return ""
	}
	s := body[0]
	var expr []token
	switch {
	case s.tok(0) == "return" && len(s.toks) >= 2:
		expr = s.toks[1:]
		if parts := splitTop(expr, ","); len(parts) > 1 {
			expr = parts[0]
		}
	default:
		eq := indexOp(s.toks, "=")
		if eq < 1 || dotted(s.toks[:eq]) == "" {
			return ""
		}
		expr = s.toks[eq+1:]
	}
	v := evalLiteral(expr, nil)
	if isScalar(v) || v.kind == vConst && v.canon != "None" {
		return v.canon
	}
	return ""
}

// plainText renders toks as compact does, without normalizing them: an
// exit's text only needs to match itself in the other version, and every
// return and raise of a module is rendered.
func plainText(toks []token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && (wordy(t) && wordy(toks[i-1]) || isOp(toks[i-1], ",")) {
			b.WriteByte(' ')
		}
		b.WriteString(t.text)
	}
	return b.String()
}
