package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// skips reads the statements at the top level of a test body that keep it from
// running. An unconditional skip (t.Skip, an early return) wins over a guard.
// A return after the first check drops the checks after it (they are dead code)
// and skips the subtests that would start after it.
func (e *env) skips(body *ast.BlockStmt, n *node) {
	if body == nil {
		return
	}
	first := firstCheckLine(n)
	var guard *testscan.Skip
	var guardCond ast.Expr
	for i, st := range body.List {
		switch v := st.(type) {
		case *ast.ExprStmt:
			if reason, ok := e.skipCall(v.X); ok {
				n.skip = &testscan.Skip{Kind: testscan.SkipCall, Reason: reason, Line: e.u.line(v.Pos())}
				return
			}
			if sk := e.helperSkip(v.X); sk != nil {
				if sk.Kind == testscan.SkipCall {
					n.skip = sk
					return
				}
				if guard == nil {
					guard = sk
				}
			}
		case *ast.ReturnStmt:
			if i == len(body.List)-1 {
				continue
			}
			line := e.u.line(v.Pos())
			if first == 0 || line < first {
				n.skip = &testscan.Skip{Kind: testscan.SkipEarlyReturn, Line: line}
				return
			}
			n.dropAfter(line)
		case *ast.IfStmt:
			if guard == nil {
				guard, guardCond = e.ifSkip(v)
			}
		case *ast.SwitchStmt:
			if guard == nil {
				guard = e.caseSkip(v.Body)
			}
		case *ast.TypeSwitchStmt:
			if guard == nil {
				guard = e.caseSkip(v.Body)
			}
		}
	}
	n.skip = guard
	if guard != nil && guard.Kind == testscan.SkipConditional {
		n.skipCond = guardCond
	}
}

func firstCheckLine(n *node) int {
	first := 0
	for _, a := range n.asserts {
		if first == 0 || a.Line < first {
			first = a.Line
		}
	}
	for _, c := range n.children {
		if first == 0 || c.runLine < first {
			first = c.runLine
		}
	}
	return first
}

// dropAfter removes the checks after an unconditional return at line.
func (n *node) dropAfter(line int) {
	kept := n.asserts[:0]
	for _, a := range n.asserts {
		if a.Line < line {
			kept = append(kept, a)
		}
	}
	n.asserts = kept
	for _, c := range n.children {
		if c.runLine > line && c.skip == nil {
			c.skip = &testscan.Skip{Kind: testscan.SkipEarlyReturn, Line: line}
		}
	}
}

// skipCall reads t.Skip, t.Skipf and t.SkipNow (s.T().Skip in suites, c.Skip in
// gocheck) and returns the reason given.
func (e *env) skipCall(x ast.Expr) (string, bool) {
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return "", false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	switch sel.Sel.Name {
	case "Skip", "Skipf", "SkipNow":
	default:
		return "", false
	}
	if !e.isTestingExpr(sel.X) && e.objectFamily(sel.X) != famCheck {
		return "", false
	}
	if len(call.Args) == 0 {
		return "", true
	}
	if bl, ok := call.Args[0].(*ast.BasicLit); ok && bl.Kind == token.STRING {
		if v, ok := unquote(bl.Value); ok {
			return v, true
		}
	}
	return e.u.text(call.Args[0]), true
}

// skipIn finds a skip call or a return at the top level of a block.
func (e *env) skipIn(stmts []ast.Stmt) (*testscan.Skip, bool) {
	for _, st := range stmts {
		switch v := st.(type) {
		case *ast.ExprStmt:
			if reason, ok := e.skipCall(v.X); ok {
				return &testscan.Skip{Reason: reason, Line: e.u.line(v.Pos())}, true
			}
		case *ast.ReturnStmt:
			return &testscan.Skip{Line: e.u.line(v.Pos())}, true
		}
	}
	return nil, false
}

// ifSkip reads `if cond { t.Skip() }` and `if cond { return }` guards, and
// `if !testing.Short() { ...the test... }`.
func (e *env) ifSkip(s *ast.IfStmt) (*testscan.Skip, ast.Expr) {
	short, negShort := e.shortIn(s.Cond, false)
	if sk, ok := e.skipIn(s.Body.List); ok {
		switch {
		case s.Init == nil && constTrue(s.Cond):
			// `if true { return }`: a skip in all but name.
			sk.Kind = testscan.SkipCall
			if sk.Reason == "" {
				sk.Kind = testscan.SkipEarlyReturn
			}
			return sk, nil
		case short:
			sk.Kind = testscan.SkipShortGuard
		default:
			sk.Kind = testscan.SkipConditional
			sk.EnvGuard = e.readsEnv(s.Cond) || s.Init != nil && e.readsEnv(s.Init)
			if s.Init == nil {
				sk.Platform = goosCond(s.Cond)
			}
			sk.OnResult = e.readsOwnCode(s.Cond) || s.Init != nil && e.readsOwnCode(s.Init)
			if negShort && sk.Reason == "" {
				sk.Reason = "not -short"
			}
		}
		if s.Init == nil && !short && !negShort {
			return sk, s.Cond
		}
		return sk, nil
	}
	if negShort && !short && s.Else == nil && len(s.Body.List) > 0 {
		return &testscan.Skip{Kind: testscan.SkipShortGuard, Line: e.u.line(s.Pos())}, nil
	}
	return nil, nil
}

// caseSkip reads a switch (on runtime.GOOS, say) with a case that skips.
func (e *env) caseSkip(body *ast.BlockStmt) *testscan.Skip {
	if body == nil {
		return nil
	}
	for _, c := range body.List {
		cc, ok := c.(*ast.CaseClause)
		if !ok {
			continue
		}
		if sk, ok := e.skipIn(cc.Body); ok {
			sk.Kind = testscan.SkipConditional
			return sk
		}
	}
	return nil
}

// shortIn reports whether cond calls testing.Short() plainly and negated.
func (e *env) shortIn(cond ast.Expr, neg bool) (plain, negated bool) {
	switch v := cond.(type) {
	case *ast.ParenExpr:
		return e.shortIn(v.X, neg)
	case *ast.UnaryExpr:
		if v.Op == token.NOT {
			return e.shortIn(v.X, !neg)
		}
	case *ast.BinaryExpr:
		if v.Op == token.LAND || v.Op == token.LOR {
			p1, n1 := e.shortIn(v.X, neg)
			p2, n2 := e.shortIn(v.Y, neg)
			return p1 || p2, n1 || n2
		}
	case *ast.CallExpr:
		if fam, fn := e.calleePkg(v); fam == famTesting && fn == "Short" && len(v.Args) == 0 {
			return !neg, neg
		}
	}
	return false, false
}

// isCommentedAssertion reports whether a comment's text is an assertion call
// that was commented out: "// assert.Equal(t, 1, x)", "// t.Errorf(...)".
func isCommentedAssertion(comment string) bool {
	text := strings.TrimPrefix(comment, "//")
	if strings.HasPrefix(text, "/*") {
		text = strings.TrimSuffix(strings.TrimPrefix(text, "/*"), "*/")
	}
	text = strings.TrimSpace(text)
	if !strings.HasSuffix(text, ")") || len(text) > 2000 {
		return false
	}
	x, err := parser.ParseExpr(text)
	if err != nil {
		return false
	}
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	name := sel.Sel.Name
	if id, ok := sel.X.(*ast.Ident); ok {
		switch id.Name {
		case "assert", "require", "qt", "is":
			return isExported(name)
		case "cmp":
			return name == "Diff" || name == "Equal"
		}
		if failMethods[name] || name == "Assert" || name == "Check" {
			return true
		}
		_, ok := lookupTestify(name)
		return ok && len(id.Name) <= 2 // s.Equal, a.Equal
	}
	return failMethods[name]
}

// constTrue reports a condition that is always true: true, !false, a
// comparison of two equal literals, or such joined with || and &&.
func constTrue(x ast.Expr) bool {
	switch v := x.(type) {
	case *ast.ParenExpr:
		return constTrue(v.X)
	case *ast.Ident:
		return v.Name == "true"
	case *ast.UnaryExpr:
		return v.Op == token.NOT && constFalse(v.X)
	case *ast.BinaryExpr:
		switch v.Op {
		case token.LOR:
			return constTrue(v.X) || constTrue(v.Y)
		case token.LAND:
			return constTrue(v.X) && constTrue(v.Y)
		case token.EQL:
			a, ok1 := v.X.(*ast.BasicLit)
			b, ok2 := v.Y.(*ast.BasicLit)
			return ok1 && ok2 && a.Kind == b.Kind && a.Value == b.Value
		}
	}
	return false
}

func constFalse(x ast.Expr) bool {
	switch v := x.(type) {
	case *ast.ParenExpr:
		return constFalse(v.X)
	case *ast.Ident:
		return v.Name == "false"
	case *ast.UnaryExpr:
		return v.Op == token.NOT && constTrue(v.X)
	case *ast.BinaryExpr:
		switch v.Op {
		case token.LAND:
			return constFalse(v.X) || constFalse(v.Y)
		case token.LOR:
			return constFalse(v.X) && constFalse(v.Y)
		}
	}
	return false
}

// readsOwnCode reports a condition that calls a function of the package
// under test (an unqualified call that is no builtin), directly or through
// a local bound to such a call: `if got := Add(2, 2); got != 4 { t.Skip() }`
// skips exactly when the code gives the wrong answer.
func (e *env) readsOwnCode(x ast.Node) bool {
	found := false
	// A function the test file declares is a helper of the tests (an
	// availability probe: hasNetwork()), not the code under test.
	helper := func(name string) bool {
		if e.u.synthetic || e.u.file == nil {
			return false
		}
		for _, d := range e.u.file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name {
				return true
			}
		}
		return false
	}
	own := func(v string) bool {
		i := strings.IndexByte(v, '(')
		return i > 0 && token.IsIdentifier(v[:i]) && !predeclared(v[:i]) && !helper(v[:i])
	}
	ast.Inspect(x, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.CallExpr:
			if id, ok := v.Fun.(*ast.Ident); ok && !predeclared(id.Name) && !helper(id.Name) {
				found = true
			}
		case *ast.Ident:
			if val, ok := e.values[v.Name]; ok && own(val) {
				found = true
			}
		}
		return !found
	})
	return found
}

// predeclared reports a name of Go's universe: a builtin function or a
// type a condition converts with (len, int, string).
func predeclared(name string) bool { return types.Universe.Lookup(name) != nil }

// goosCond reads a condition on the operating system alone,
// `runtime.GOOS == "linux"` or `!= "windows"` (either side first): the
// system it holds on, or "!" and the one it does not hold on; "" for any
// other condition.
func goosCond(x ast.Expr) string {
	b, ok := ast.Unparen(x).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL && b.Op != token.NEQ {
		return ""
	}
	goos := func(e ast.Expr) bool {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "GOOS" {
			return false
		}
		id, ok := sel.X.(*ast.Ident)
		return ok && id.Name == "runtime"
	}
	lit, ok := b.Y.(*ast.BasicLit)
	if !goos(b.X) {
		lit, ok = b.X.(*ast.BasicLit)
		if !ok || !goos(b.Y) {
			return ""
		}
	}
	if !ok || lit.Kind != token.STRING {
		return ""
	}
	p := testscan.PlatformOf(lit.Value)
	if p == "" {
		return ""
	}
	if b.Op == token.NEQ {
		return "!" + p
	}
	return p
}

// readsEnv reports whether a condition reads the process environment
// (os.Getenv, os.LookupEnv), directly.
func (e *env) readsEnv(x ast.Node) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fam, fn := e.calleePkg(call); fam == famOS && (fn == "Getenv" || fn == "LookupEnv") {
				found = true
			}
		}
		return !found
	})
	return found
}

// helperSkip reads a call of a function of the file that skips the test
// it is handed (`skipSlow(t)`, whose body calls t.Skip at its top level,
// or under an if, as a test's own body would): the skip that call makes,
// at the call's line, its reason naming the helper; nil for any other
// statement. One level of helpers is read.
func (e *env) helperSkip(x ast.Expr) *testscan.Skip {
	call, ok := x.(*ast.CallExpr)
	if !ok || e.u.synthetic || e.u.file == nil {
		return nil
	}
	id, ok := call.Fun.(*ast.Ident)
	if !ok {
		return nil
	}
	passesT := false
	for _, a := range call.Args {
		if ai, ok := a.(*ast.Ident); ok && e.isTVar(ai.Name) {
			passesT = true
		}
	}
	if !passesT {
		return nil
	}
	var fd *ast.FuncDecl
	for _, d := range e.u.file.Decls {
		if f, ok := d.(*ast.FuncDecl); ok && f.Recv == nil && f.Name.Name == id.Name && f.Body != nil {
			fd = f
			break
		}
	}
	if fd == nil {
		return nil
	}
	h := newEnv(e.ctx, e.u, fd.Body)
	h.addParams(fd.Type)
	if len(h.tvars) == 0 {
		return nil
	}
	line := e.u.line(call.Pos())
	for _, st := range fd.Body.List {
		switch v := st.(type) {
		case *ast.ExprStmt:
			if reason, ok := h.skipCall(v.X); ok {
				return &testscan.Skip{Kind: testscan.SkipCall, Reason: strings.TrimSpace(id.Name + ": " + reason), Line: line}
			}
		case *ast.IfStmt:
			// A skip call under the if; a helper's early return skips
			// nothing of the test.
			calls := false
			for _, b := range v.Body.List {
				if es, ok := b.(*ast.ExprStmt); ok {
					if _, ok := h.skipCall(es.X); ok {
						calls = true
					}
				}
			}
			if sk, _ := h.ifSkip(v); sk != nil && calls {
				sk.Line = line
				sk.Reason = strings.TrimSpace(id.Name + ": " + sk.Reason)
				return sk
			}
		case *ast.ReturnStmt:
			return nil // a return before any skip: the helper may not skip
		}
	}
	return nil
}
