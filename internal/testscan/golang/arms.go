package golang

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// armsOf returns the branches (testscan.Arm) a check made by call sits in
// within the function walked, outermost first: if/else arms (else-if
// chains included), a switch's cases (a case that ends in fallthrough is
// one arm with the next), loop and closure bodies. A failure call's own
// if (`if got != want { t.Errorf(...) }`: the check's condition, see
// failCall) is not one of its arms.
func (e *env) armsOf(call *ast.CallExpr, stack []ast.Node) []testscan.Arm {
	own := e.isFailCall(call)
	var rev []testscan.Arm
	var child ast.Node = call
	for i := len(stack) - 1; i >= 0; i-- {
		switch s := stack[i].(type) {
		case *ast.FuncLit:
			own = false
			cond := "func"
			if i >= 2 && recovers(s, stack[i-1], stack[i-2]) {
				cond = testscan.RecoverArm
			}
			rev = append(rev, testscan.Arm{At: e.at(s.Pos()), Cond: cond})
		case *ast.GoStmt:
			// go func() { check }() or go check(t): off the test's
			// goroutine; nothing waiting for it, it may run after the
			// test has ended, or never.
			own = false
			if e.isDetached(s, stack[:i]) {
				rev = append(rev, testscan.Arm{At: e.at(s.Pos()), Cond: testscan.Detached + e.goText(s)})
			}
		case *ast.CommClause:
			own = false
			rev = append(rev, testscan.Arm{At: e.at(s.Pos())}) // select: not read
		case *ast.CaseClause:
			own = false
			if i >= 2 {
				if body, ok := stack[i-1].(*ast.BlockStmt); ok {
					rev = append(rev, e.caseArm(stack[i-2], body, s))
				}
			}
		case *ast.IfStmt:
			if child != s.Body && child != s.Else {
				break
			}
			if own {
				own = false
				break
			}
			idx := 0
			if child == s.Else {
				idx = 1
			}
			cond := "if " + e.u.text(s.Cond)
			if s.Init != nil {
				cond = "if " + e.u.text(s.Init) + "; " + e.u.text(s.Cond)
			} else if lit := e.condConstant(s.Cond); lit != "" {
				cond = "if " + lit
			}
			rev = append(rev, testscan.Arm{At: e.at(s.Pos()), Cond: cond, Index: idx})
		case *ast.ForStmt:
			if child == s.Body {
				rev = append(rev, testscan.Arm{At: e.at(s.Pos()), Cond: "for " + e.u.text(s.Init) + "; " + e.u.text(s.Cond) + "; " + e.u.text(s.Post)})
			}
		case *ast.RangeStmt:
			if child == s.Body {
				rev = append(rev, testscan.Arm{At: e.at(s.Pos()), Cond: "range " + e.u.text(s.X)})
			}
		}
		child = stack[i]
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// recovers reports whether lit, called by call in stmt, is a deferred
// function that calls recover() itself (not in a function nested in it,
// where recover returns nil).
func recovers(lit *ast.FuncLit, call, stmt ast.Node) bool {
	c, ok := call.(*ast.CallExpr)
	if _, deferred := stmt.(*ast.DeferStmt); !ok || !deferred || c.Fun != lit {
		return false
	}
	found := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if id, ok := v.Fun.(*ast.Ident); ok && id.Name == "recover" && len(v.Args) == 0 {
				found = true
			}
		}
		return !found
	})
	return found
}

// caseArm is the arm of a switch that clause cl of its body is in: the
// clauses before it, counting as one a clause that falls through into the
// next.
func (e *env) caseArm(sw ast.Node, body *ast.BlockStmt, cl *ast.CaseClause) testscan.Arm {
	var cond string
	switch s := sw.(type) {
	case *ast.SwitchStmt:
		cond = "switch " + e.u.text(s.Tag)
	case *ast.TypeSwitchStmt:
		cond = "switch " + e.u.text(s.Assign)
	default:
		return testscan.Arm{At: e.at(cl.Pos())}
	}
	idx := 0
	for _, st := range body.List {
		c, ok := st.(*ast.CaseClause)
		if !ok || c == cl {
			break
		}
		if n := len(c.Body); n == 0 || !isFallthrough(c.Body[n-1]) {
			idx++
		}
	}
	return testscan.Arm{At: e.at(sw.Pos()), Cond: cond, Index: idx}
}

// at names the conditional at p for Arm.At: its line in the original file
// and its column, which a masked extraction keeps.
func (e *env) at(p token.Pos) int {
	return e.u.line(p)<<12 | e.u.tf.PositionFor(p, false).Column&0xfff
}

func isFallthrough(s ast.Stmt) bool {
	b, ok := s.(*ast.BranchStmt)
	return ok && b.Tok == token.FALLTHROUGH
}

// isFailCall reports whether call is t.Error and its kin (see failCall).
func (e *env) isFailCall(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && failKind(sel.Sel.Name) != "" && (e.isTestingExpr(sel.X) || e.failsLikeT(sel.X))
}

// isDetached reports, once per go statement, that nothing waits for g
// (outer is the stack above it).
func (e *env) isDetached(g *ast.GoStmt, outer []ast.Node) bool {
	d, ok := e.detached[g]
	if !ok {
		if e.detached == nil {
			e.detached = map[*ast.GoStmt]bool{}
		}
		d = !e.waitedFor(g, outer)
		e.detached[g] = d
	}
	return d
}

// inDetached reports whether the innermost node of stack lies in a go
// statement nothing waits for.
func (e *env) inDetached(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		if g, ok := stack[i].(*ast.GoStmt); ok && e.isDetached(g, stack[:i]) {
			return true
		}
	}
	return false
}

// goText is the source of a go statement, a function literal's body cut
// to "{...}".
func (e *env) goText(g *ast.GoStmt) string {
	if fl, ok := g.Call.Fun.(*ast.FuncLit); ok {
		return "go func" + e.u.text(fl.Type)[len("func"):] + " {...}()"
	}
	return "go " + e.u.text(g.Call)
}

// waitedFor reports whether the function g sits in (the innermost
// function literal of outer, the stack above g, else the body walked)
// waits for something after g: a channel receive, a select, a range over
// a name g uses (its results), or a call or method value that waits
// (waitName) after it, or anywhere in what runs as the function ends (a
// defer statement, t.Cleanup). A goroutine whose checks a wait
// follows can fail the test; the reading is lenient (what is waited for
// is not checked), so that a real test with a server or a worker is
// never read as detached.
func (e *env) waitedFor(g *ast.GoStmt, outer []ast.Node) bool {
	var scope ast.Node
	for i := len(outer) - 1; i >= 0; i-- {
		if fl, ok := outer[i].(*ast.FuncLit); ok {
			scope = fl.Body
			break
		}
	}
	if scope == nil {
		if len(outer) == 0 {
			return true
		}
		scope = outer[0]
	}
	uses := map[string]bool{}
	ast.Inspect(g, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok {
			uses[id.Name] = true
		}
		return true
	})
	waits := func(x ast.Node) bool {
		switch v := x.(type) {
		case *ast.UnaryExpr:
			return v.Op == token.ARROW
		case *ast.SelectStmt:
			return true
		case *ast.RangeStmt:
			id, ok := ast.Unparen(v.X).(*ast.Ident)
			return ok && uses[id.Name]
		case *ast.SelectorExpr:
			return waitName(v.Sel.Name)
		case *ast.Ident:
			return waitName(v.Name)
		}
		return false
	}
	found := false
	ast.Inspect(scope, func(x ast.Node) bool {
		if found || x == nil {
			return false
		}
		if x == g {
			return false
		}
		if atEnd(x) {
			ast.Inspect(x, func(y ast.Node) bool {
				if y != nil && waits(y) {
					found = true
				}
				return !found
			})
			return false
		}
		if x.Pos() >= g.End() && waits(x) {
			found = true
		}
		return !found
	})
	return found
}

// waitName reports a function or method name that waits for other
// goroutines or lets them run where a test calls it: Wait, Join, Sleep,
// Eventually, Never, and a project's own waits (waitForServerReady,
// pollUntil, blockUntilReady), read by the words in the name.
func waitName(n string) bool {
	l := strings.ToLower(n)
	for _, w := range []string{"wait", "sleep", "eventually", "never", "join", "until", "ready", "poll"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// atEnd reports a statement or call whose code runs as the function
// ends, wherever it is written: a defer statement, a Cleanup call.
func atEnd(x ast.Node) bool {
	switch v := x.(type) {
	case *ast.DeferStmt:
		return true
	case *ast.CallExpr:
		sel, ok := v.Fun.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Cleanup"
	}
	return false
}

// condConstant spells a condition that is a name bound once, to a literal,
// in the test function or at the top of the file (`const slow = false`,
// `check := false`), or its negation, as that literal followed by the name
// in a comment (`false /* slow */`), so that testscan.NeverHolds can fold
// it; "" for any other condition. A name bound more than once, or also a
// parameter or a range variable, is not a constant.
func (e *env) condConstant(cond ast.Expr) string {
	neg := ""
	x := ast.Unparen(cond)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		neg, x = "!", ast.Unparen(u.X)
	}
	id, ok := x.(*ast.Ident)
	if !ok || id.Name == "true" || id.Name == "false" || id.Name == "_" {
		return ""
	}
	var vals []ast.Expr
	bound := 0
	bind := func(names []*ast.Ident, values []ast.Expr) {
		for i, n := range names {
			if n.Name != id.Name {
				continue
			}
			bound++
			if len(values) == len(names) {
				vals = append(vals, values[i])
			}
		}
	}
	spec := func(d *ast.GenDecl) {
		if d.Tok != token.CONST && d.Tok != token.VAR {
			return
		}
		for _, sp := range d.Specs {
			if vs, ok := sp.(*ast.ValueSpec); ok {
				bind(vs.Names, vs.Values)
			}
		}
	}
	if e.body != nil {
		ast.Inspect(e.body, func(n ast.Node) bool {
			switch v := n.(type) {
			case *ast.AssignStmt:
				var names []*ast.Ident
				for _, l := range v.Lhs {
					if li, ok := l.(*ast.Ident); ok {
						names = append(names, li)
					} else {
						names = append(names, &ast.Ident{})
					}
				}
				if v.Tok != token.DEFINE && v.Tok != token.ASSIGN {
					for _, l := range names {
						if l.Name == id.Name {
							bound += 2 // x += ..., x++ elsewhere: not a constant
						}
					}
					return true
				}
				bind(names, v.Rhs)
			case *ast.IncDecStmt:
				if li, ok := v.X.(*ast.Ident); ok && li.Name == id.Name {
					bound += 2
				}
			case *ast.DeclStmt:
				if d, ok := v.Decl.(*ast.GenDecl); ok {
					spec(d)
				}
			case *ast.RangeStmt:
				for _, k := range []ast.Expr{v.Key, v.Value} {
					if ki, ok := k.(*ast.Ident); ok && ki.Name == id.Name {
						bound += 2
					}
				}
			case *ast.FuncType:
				if v.Params != nil {
					for _, f := range v.Params.List {
						for _, n := range f.Names {
							if n.Name == id.Name {
								bound += 2
							}
						}
					}
				}
			}
			return true
		})
	}
	if !e.u.synthetic && e.u.file != nil {
		for _, d := range e.u.file.Decls {
			if gd, ok := d.(*ast.GenDecl); ok {
				spec(gd)
			}
		}
	}
	if bound != 1 || len(vals) != 1 {
		return ""
	}
	switch v := ast.Unparen(vals[0]).(type) {
	case *ast.Ident:
		if v.Name != "true" && v.Name != "false" {
			return ""
		}
		return neg + v.Name + " /* " + id.Name + " */"
	case *ast.BasicLit:
		return neg + v.Value + " /* " + id.Name + " */"
	}
	return ""
}
