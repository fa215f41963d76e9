package golang

import (
	"go/ast"
	"go/token"

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
			rev = append(rev, testscan.Arm{At: e.at(s.Pos()), Cond: "func"})
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
