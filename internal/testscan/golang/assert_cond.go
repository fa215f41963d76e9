package golang

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// failMethods are the testing.TB methods that fail a test.
var failMethods = map[string]bool{
	"Error": true, "Errorf": true, "Fatal": true, "Fatalf": true, "Fail": true, "FailNow": true,
}

// check is what a failure condition asserts.
type check struct {
	kind     string // replaces the failing call's kind (cmp.Diff, cmp.Equal) when set
	strength testscan.Strength
	negated  bool
	subject  string
	expected string
}

// assertion reads one call as an assertion, if it is one.
func (e *env) assertion(call *ast.CallExpr, stack []ast.Node) (testscan.Assertion, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return testscan.Assertion{}, false
	}
	if kind := failKind(sel.Sel.Name); kind != "" && (e.isTestingExpr(sel.X) || e.failsLikeT(sel.X)) {
		return e.failCall(call, kind, stack)
	}
	return e.libCall(call, sel)
}

// failsLikeT reports whether x is a gocheck or quicktest *C, which has the
// Error and Fatal methods of *testing.T.
func (e *env) failsLikeT(x ast.Expr) bool {
	fam := e.objectFamily(x)
	return fam == famCheck || fam == famQt
}

// failKind is the assertion kind of a failMethods method, "" for other names.
func failKind(method string) string {
	switch method {
	case "Error":
		return "t.Error"
	case "Errorf":
		return "t.Errorf"
	case "Fatal":
		return "t.Fatal"
	case "Fatalf":
		return "t.Fatalf"
	case "Fail":
		return "t.Fail"
	case "FailNow":
		return "t.FailNow"
	}
	return ""
}

// failCall reads t.Errorf and its kin; its strength is that of the condition of
// the innermost if whose branch holds it. The failure calls of one branch are one
// assertion.
func (e *env) failCall(call *ast.CallExpr, kind string, stack []ast.Node) (testscan.Assertion, bool) {
	var child ast.Node = call
loop:
	for i := len(stack) - 1; i >= 0; i-- {
		switch s := stack[i].(type) {
		case *ast.FuncLit, *ast.CaseClause, *ast.CommClause:
			break loop
		case *ast.IfStmt:
			if child != s.Body && child != s.Else {
				break
			}
			key := ifKey{s: s, els: child == s.Else}
			if e.done[key] {
				return testscan.Assertion{}, false
			}
			if e.done == nil {
				e.done = map[ifKey]bool{}
			}
			e.done[key] = true
			c := e.cond(s.Cond, child == s.Else)
			a := testscan.Assertion{
				Line: e.u.line(s.Pos()), Kind: kind, Strength: c.strength,
				Negated: c.negated, Subject: c.subject, Expected: c.expected,
			}
			if c.kind != "" {
				a.Kind = c.kind
			}
			return a, true
		}
		child = stack[i]
	}
	return testscan.Assertion{Line: e.u.line(call.Pos()), Kind: kind, Strength: testscan.Medium}, true
}

// cond reads a condition under which a test fails; neg is set when the test fails
// when the condition is false (the call sits in the else branch).
func (e *env) cond(x ast.Expr, neg bool) check {
	// `if false && got != want { t.Fatal() }` never fails.
	if b, ok := x.(*ast.BinaryExpr); ok && (b.Op == token.LAND || b.Op == token.LOR) &&
		(!neg && constFalse(x) || neg && constTrue(x)) {
		return check{strength: testscan.Trivial}
	}
	switch v := x.(type) {
	case *ast.ParenExpr:
		return e.cond(v.X, neg)
	case *ast.UnaryExpr:
		if v.Op == token.NOT {
			return e.cond(v.X, !neg)
		}
	case *ast.BinaryExpr:
		switch v.Op {
		case token.LAND, token.LOR:
			a, b := e.cond(v.X, neg), e.cond(v.Y, neg)
			if b.strength > a.strength {
				return b
			}
			return a
		case token.EQL, token.NEQ:
			return e.equality(v, neg)
		case token.LSS, token.GTR, token.LEQ, token.GEQ:
			return check{strength: testscan.Medium, subject: e.u.text(v.X), expected: e.u.text(v.Y)}
		}
	case *ast.CallExpr:
		return e.condCall(v, neg)
	case *ast.Ident:
		if (v.Name == "false" && !neg) || (v.Name == "true" && neg) {
			return check{strength: testscan.Trivial}
		}
		if v.Name == "true" || v.Name == "false" {
			return check{strength: testscan.Medium}
		}
	}
	return check{strength: testscan.Medium, subject: e.u.text(x)}
}

// equality reads a == b or a != b as a failure condition.
func (e *env) equality(v *ast.BinaryExpr, neg bool) check {
	assertsEqual := (v.Op == token.NEQ) != neg
	if isNil(v.X) || isNil(v.Y) {
		other := v.X
		if isNil(v.X) {
			other = v.Y
		}
		c := check{strength: testscan.Weak, subject: e.u.text(other)}
		if assertsEqual {
			c.strength = testscan.Medium
		}
		return c
	}
	if call := e.diffCall(v.X, v.Y); call != nil {
		c := e.cmpCheck(call, "cmp.Diff", true)
		c.negated = !assertsEqual
		return c
	}
	tx, ty := e.u.text(v.X), e.u.text(v.Y)
	if tx == ty && !hasCall(v.X) {
		return check{strength: testscan.Trivial, negated: !assertsEqual, subject: tx, expected: ty}
	}
	subject, expected := orientTexts(v.X, v.Y, tx, ty, false)
	c := check{strength: testscan.Strong, negated: !assertsEqual, subject: subject, expected: expected}
	if isCallTo(v.X, "len") || isCallTo(v.Y, "len") || isBoolLit(v.X) || isBoolLit(v.Y) {
		c.strength = testscan.Medium
	}
	return c
}

// diffCall finds cmp.Diff(...) compared with "": directly, or through a variable
// bound to it.
func (e *env) diffCall(a, b ast.Expr) *ast.CallExpr {
	if isEmptyString(a) {
		a, b = b, a
	}
	if !isEmptyString(b) {
		return nil
	}
	switch v := a.(type) {
	case *ast.Ident:
		return e.diffVars[v.Name]
	case *ast.CallExpr:
		if fam, fn := e.calleePkg(v); fam == famCmp && fn == "Diff" {
			return v
		}
	}
	return nil
}

// cmpCheck is a Strong check of a two-operand comparison call.
func (e *env) cmpCheck(call *ast.CallExpr, kind string, expectedFirst bool) check {
	c := check{kind: kind, strength: testscan.Strong}
	if len(call.Args) >= 2 {
		c.subject, c.expected = e.orient(call.Args[0], call.Args[1], expectedFirst)
	}
	return c
}

// equalFuncs compare their first two arguments for equality.
var equalFuncs = map[string]bool{
	"DeepEqual": true, "Equal": true, "EqualFold": true, "Equals": true,
	"EqualValues": true, "ObjectsAreEqual": true,
}

func (e *env) condCall(call *ast.CallExpr, neg bool) check {
	fam, name := e.calleePkg(call)
	if name == "" {
		if id, ok := call.Fun.(*ast.Ident); ok {
			name = id.Name
		}
	}
	switch {
	case equalFuncs[name] && len(call.Args) >= 2:
		kind := ""
		if fam == famCmp {
			kind = "cmp.Equal"
		}
		c := e.cmpCheck(call, kind, false)
		c.negated = !neg
		return c
	case (name == "Is" || name == "As") && fam == famErrors && len(call.Args) == 2:
		// Named for what it checks: which error came back, whatever its
		// message says.
		c := check{kind: "errors." + name, strength: testscan.Strong, negated: !neg, subject: e.u.text(call.Args[0]), expected: e.u.text(call.Args[1])}
		if c.subject == c.expected {
			c.strength = testscan.Trivial // errors.Is(err, err)
		}
		return c
	}
	if len(call.Args) == 2 && !isLiteral(call.Args[0]) && isValueLit(call.Args[1]) {
		// strings.HasPrefix(out, "usage:"), bytes.Contains(b, "x"): the
		// literal is what the subject is checked for, as assert.Contains
		// reads it; a check moved elsewhere carries it, or is another one.
		return check{strength: testscan.Medium, subject: e.u.text(call.Args[0]), expected: e.u.text(call.Args[1])}
	}
	if len(call.Args) > 0 {
		return check{strength: testscan.Medium, subject: e.u.text(call.Args[0])}
	}
	return check{strength: testscan.Medium, subject: e.u.text(call)}
}

// orient says which of two compared operands is the expected value: a literal,
// or a name that says so (want, expected), else the conventional position
// (got != want; cmp.Diff(want, got)).
func (e *env) orient(a, b ast.Expr, expectedFirst bool) (subject, expected string) {
	return orientTexts(a, b, e.u.text(a), e.u.text(b), expectedFirst)
}

// orientTexts is orient for operands whose texts are known.
func orientTexts(a, b ast.Expr, ta, tb string, expectedFirst bool) (subject, expected string) {
	s, x, ts, tx := a, b, ta, tb
	if expectedFirst {
		s, x, ts, tx = b, a, tb, ta
	}
	switch {
	case isLiteral(s) && !isLiteral(x):
		return tx, ts
	case isLiteral(x) && !isLiteral(s):
	case namesExpected(ts) && !namesExpected(tx):
		return tx, ts
	}
	return ts, tx
}

func namesExpected(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "want") || strings.Contains(s, "expect") || strings.HasPrefix(s, "exp")
}

func isLiteral(x ast.Expr) bool {
	switch v := x.(type) {
	case *ast.BasicLit, *ast.CompositeLit:
		return true
	case *ast.ParenExpr:
		return isLiteral(v.X)
	case *ast.UnaryExpr:
		return isLiteral(v.X)
	case *ast.Ident:
		return v.Name == "true" || v.Name == "false" || v.Name == "nil"
	}
	return false
}

func isNil(x ast.Expr) bool {
	id, ok := x.(*ast.Ident)
	return ok && id.Name == "nil"
}

func isBoolLit(x ast.Expr) bool {
	id, ok := x.(*ast.Ident)
	return ok && (id.Name == "true" || id.Name == "false")
}

func isEmptyString(x ast.Expr) bool {
	bl, ok := x.(*ast.BasicLit)
	if !ok || bl.Kind != token.STRING {
		return false
	}
	v, ok := unquote(bl.Value)
	return ok && v == ""
}

func isCallTo(x ast.Expr, name string) bool {
	c, ok := x.(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := c.Fun.(*ast.Ident)
	return ok && id.Name == name
}

func hasCall(x ast.Node) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if _, ok := n.(*ast.CallExpr); ok {
			found = true
		}
		return !found
	})
	return found
}

// pollChecks reads the conditions a polled check waits for:
// require.Eventually(t, func() bool { ...; return A && B }, ...) fails
// unless A and B come to hold, and each `if C { return false }` of the
// function's top level is a condition that must come not to hold. The poll
// itself (a) is trivial when the function only returns true.
func (e *env) pollChecks(call *ast.CallExpr, a *testscan.Assertion) []testscan.Assertion {
	if !strings.HasSuffix(a.Kind, ".Eventually") {
		return nil
	}
	var fn *ast.FuncLit
	for _, arg := range call.Args {
		if f, ok := arg.(*ast.FuncLit); ok {
			fn = f
			break
		}
	}
	if fn == nil || fn.Body == nil || len(fn.Body.List) == 0 {
		return nil
	}
	var out []testscan.Assertion
	add := func(pos token.Pos, c check) {
		if c.strength == testscan.Trivial {
			return
		}
		out = append(out, testscan.Assertion{Line: e.u.line(pos), Kind: a.Kind, Strength: c.strength, Negated: c.negated, Subject: c.subject, Expected: c.expected})
	}
	onlyTrue := true
	for _, st := range fn.Body.List {
		switch s := st.(type) {
		case *ast.IfStmt:
			if s.Init == nil && s.Else == nil && len(s.Body.List) == 1 && returnsIdent(s.Body.List[0], "false") {
				add(s.Pos(), e.cond(s.Cond, false))
			}
		case *ast.ReturnStmt:
			if len(s.Results) != 1 {
				continue
			}
			if id, ok := s.Results[0].(*ast.Ident); ok && id.Name == "true" {
				continue
			}
			onlyTrue = false
			for _, c := range conjuncts(s.Results[0]) {
				add(c.Pos(), e.cond(c, true))
			}
		}
	}
	if onlyTrue && len(out) == 0 {
		a.Strength = testscan.Trivial
	}
	return out
}

func returnsIdent(st ast.Stmt, name string) bool {
	r, ok := st.(*ast.ReturnStmt)
	if !ok || len(r.Results) != 1 {
		return false
	}
	id, ok := r.Results[0].(*ast.Ident)
	return ok && id.Name == name
}

// conjuncts splits A && B && C.
func conjuncts(x ast.Expr) []ast.Expr {
	if p, ok := x.(*ast.ParenExpr); ok {
		return conjuncts(p.X)
	}
	if b, ok := x.(*ast.BinaryExpr); ok && b.Op == token.LAND {
		return append(conjuncts(b.X), conjuncts(b.Y)...)
	}
	return []ast.Expr{x}
}

// isValueLit reports a string or number literal, or one converted
// ([]byte("x"), rune('x')): a particular value, not a composite or a name.
func isValueLit(x ast.Expr) bool {
	switch v := x.(type) {
	case *ast.BasicLit:
		return v.Kind != token.IMAG
	case *ast.CallExpr:
		if len(v.Args) != 1 {
			return false
		}
		switch f := v.Fun.(type) {
		case *ast.ArrayType:
			return isValueLit(v.Args[0])
		case *ast.Ident:
			return (f.Name == "string" || f.Name == "rune" || f.Name == "byte") && isValueLit(v.Args[0])
		}
	}
	return false
}
