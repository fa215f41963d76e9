package golang

import (
	"go/ast"
	"sort"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// helperFunc reads a function of a test file that is not a test case (a test
// helper such as `func checkAdd(t *testing.T, a, b, want int)`, a benchmark,
// or a suite's SetupTest) with the same walk as a test, and files its
// assertions as helper assertions: the analyzer uses them to tell checks moved
// into a helper from checks deleted. Only functions that take a testing or
// assertion-object parameter, and methods of suites, can assert; the others
// are left to the marker walk.
func (ctx *fileCtx) helperFunc(u *unit, fd *ast.FuncDecl) {
	if !(ctx.isTest || ctx.support) || fd.Body == nil {
		return
	}
	suiteRecv := ""
	if fd.Recv != nil && len(fd.Recv.List) == 1 && ctx.suites[recvTypeName(fd.Recv.List[0].Type)] {
		if names := fd.Recv.List[0].Names; len(names) == 1 {
			suiteRecv = names[0].Name
		}
	}
	if suiteRecv == "" && !ctx.hasAssertingParam(fd.Type) {
		return
	}
	e := newEnv(ctx, u, fd.Body)
	e.suiteRecv = suiteRecv
	e.addParams(fd.Type)
	e.setParams(fd.Type)
	e.marks.startFunc(fd)
	n := &node{line: u.line(fd.Pos()), endLine: u.endLine(fd), runLine: u.line(fd.Pos())}
	e.walk(fd.Body, n)
	e.marks.endFunc(fd)
	from := len(ctx.out.HelperAssertions)
	var collect func(*node)
	collect = func(n *node) {
		ctx.out.HelperAssertions = append(ctx.out.HelperAssertions, n.asserts...)
		for _, c := range n.children {
			collect(c)
		}
	}
	collect(n)
	if len(n.children) > 0 { // subtests' assertions come after their parent's
		mine := ctx.out.HelperAssertions[from:]
		sort.SliceStable(mine, func(i, j int) bool { return mine[i].Line < mine[j].Line })
	}
	if name := helperName(fd); name != "" {
		ctx.out.Helpers = append(ctx.out.Helpers, name)
		if calls := n.allCalls(nil); len(calls) > 0 {
			if ctx.out.HelperCalls == nil {
				ctx.out.HelperCalls = map[string][]testscan.Call{}
			}
			ctx.out.HelperCalls[name] = calls
		}
		params := perRowParams(fd, paramNames(fd.Type))
		for i := from; i < len(ctx.out.HelperAssertions); i++ {
			x := &ctx.out.HelperAssertions[i]
			x.Helper = name
			x.RowsOf = testscan.LoopParam(x.Arms, params)
		}
	}
}

// helperName names a helper for Assertion.Helper: "name", or "Recv.name" for
// a method; "" for a benchmark, which no test calls.
func helperName(fd *ast.FuncDecl) string {
	if fd.Recv == nil && isTestName(fd.Name.Name, "Benchmark") {
		return ""
	}
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		return recvTypeName(fd.Recv.List[0].Type) + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// hasAssertingParam reports whether a function takes a *testing.T-like value,
// a gocheck or quicktest *C, or an assertion object.
func (ctx *fileCtx) hasAssertingParam(ft *ast.FuncType) bool {
	if ft.Params == nil {
		return false
	}
	for _, f := range ft.Params.List {
		if testingParamKind(f.Type) != "" || ctx.objectParam(f.Type) != "" {
			return true
		}
	}
	return false
}

// suiteTypes records the suite types a unit declares: the receivers of its Test
// methods and the structs that embed a Suite (testify's suite.Suite).
func (ctx *fileCtx) suiteTypes(u *unit) {
	for _, d := range u.file.Decls {
		switch v := d.(type) {
		case *ast.FuncDecl:
			if v.Recv != nil && len(v.Recv.List) == 1 && isTestName(v.Name.Name, "Test") {
				ctx.addSuite(recvTypeName(v.Recv.List[0].Type))
			}
		case *ast.GenDecl:
			for _, s := range v.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok {
					continue
				}
				if st, ok := ts.Type.(*ast.StructType); ok && embedsSuite(st) {
					ctx.addSuite(ts.Name.Name)
				}
			}
		}
	}
}

func (ctx *fileCtx) addSuite(name string) {
	if name == "" {
		return
	}
	if ctx.suites == nil {
		ctx.suites = map[string]bool{}
	}
	ctx.suites[name] = true
}

// embedsSuite reports whether a struct embeds pkg.Suite or *pkg.Suite.
func embedsSuite(st *ast.StructType) bool {
	if st.Fields == nil {
		return false
	}
	for _, f := range st.Fields.List {
		if len(f.Names) != 0 {
			continue
		}
		x := f.Type
		if s, ok := x.(*ast.StarExpr); ok {
			x = s.X
		}
		if sel, ok := x.(*ast.SelectorExpr); ok && sel.Sel.Name == "Suite" {
			return true
		}
	}
	return false
}

// allCalls adds the calls of n and its subtests to calls.
func (n *node) allCalls(calls []testscan.Call) []testscan.Call {
	for _, c := range n.calls {
		calls = testscan.AddCalls(calls, c.Name, c.Sites)
	}
	for _, c := range n.children {
		calls = c.allCalls(calls)
	}
	return calls
}

// paramNames are the names of a function's parameters.
func paramNames(ft *ast.FuncType) []string {
	if ft == nil || ft.Params == nil {
		return nil
	}
	var out []string
	for _, f := range ft.Params.List {
		for _, n := range f.Names {
			out = append(out, n.Name)
		}
	}
	return out
}

// perRowParams leaves out of a helper's params those a range loop of its
// body iterates over and may leave or skip a row of (a break, continue,
// goto or return anywhere in the loop outside a function literal), and
// those the body assigns (`cases = cases[:1]`): their checks are not made
// once per row of what the caller passed.
func perRowParams(fd *ast.FuncDecl, params []string) []string {
	if fd.Body == nil || len(params) == 0 {
		return params
	}
	early := map[string]bool{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			// cases = cases[:1]: the loop no longer ranges over what
			// the caller passed.
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					early[id.Name] = true
				}
			}
			return true
		}
		rs, ok := n.(*ast.RangeStmt)
		if !ok {
			return true
		}
		id, ok := rs.X.(*ast.Ident)
		if !ok {
			return true
		}
		ast.Inspect(rs.Body, func(m ast.Node) bool {
			switch m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt, *ast.ReturnStmt:
				early[id.Name] = true
			}
			return true
		})
		return true
	})
	return testscan.Without(params, early)
}
