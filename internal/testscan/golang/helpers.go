package golang

import (
	"go/ast"
)

// helperFunc reads a function of a test file that is not a test case (a test
// helper such as `func checkAdd(t *testing.T, a, b, want int)`, or a suite's
// SetupTest) with the same walk as a test, and files its assertions as helper
// assertions: the analyzer uses them to tell checks moved into a helper from
// checks deleted.
func (ctx *fileCtx) helperFunc(u *unit, fd *ast.FuncDecl) {
	if !ctx.isTest || fd.Body == nil || (fd.Recv == nil && !hasTestingParam(fd.Type)) {
		return
	}
	e := newEnv(ctx, u, fd.Body)
	e.addParams(fd.Type)
	e.marks.startFunc(fd)
	n := &node{line: u.line(fd.Pos()), endLine: u.endLine(fd), runLine: u.line(fd.Pos())}
	e.walk(fd.Body, n)
	e.marks.endFunc(fd)
	var collect func(*node)
	collect = func(n *node) {
		ctx.out.HelperAssertions = append(ctx.out.HelperAssertions, n.asserts...)
		for _, c := range n.children {
			collect(c)
		}
	}
	collect(n)
}

func hasTestingParam(ft *ast.FuncType) bool {
	if ft.Params == nil {
		return false
	}
	for _, f := range ft.Params.List {
		if testingParamKind(f.Type) != "" {
			return true
		}
	}
	return false
}
