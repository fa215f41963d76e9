package golang

import (
	"go/ast"
	"go/token"
	"slices"
	"sort"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// node is a test or subtest while its body is being read; ids are given when the
// tree is flattened.
type node struct {
	name    string // rewritten last segment; "*" when dynamic
	dynamic bool
	line    int
	endLine int
	// runLine is where the subtest starts running (the t.Run call): a skip in the
	// parent applies to subtests that start after it.
	runLine   int
	asserts   []testscan.Assertion
	commented int
	skip      *testscan.Skip
	// skipCond is the condition of a conditional skip at the top of the body,
	// evaluated again per table row.
	skipCond    ast.Expr
	fingerprint string
	tokens      int
	literals    []string
	nameLit     string          // see testscan.TestCase.NameLiteral
	calls       []testscan.Call // see testscan.TestCase.Calls
	detached    []testscan.Call // calls made only in a goroutine nothing waits for
	children    []*node
	// rowFuncs are the lines of the function literals of this subtest's
	// table row that its body calls (tc.assertReplay(t, ...)): their checks,
	// read in the parent's body, run here (rowChecks).
	rowFuncs [][2]int
}

// env is what the reader of one test function knows about names in it. Names are
// tracked by spelling, not by scope: test bodies rarely shadow these names.
type env struct {
	ctx   *fileCtx
	u     *unit
	tvars []string // *testing.T, *testing.F, testing.TB variables
	// suiteRecv is the receiver of a suite method ("" in plain tests).
	suiteRecv string
	// objects are variables bound to assertion objects: assert.New(t),
	// require.New(t), is.New(t), qt.New(t), and gocheck's *check.C.
	objects  map[string]string        // made on first write, like diffVars
	diffVars map[string]*ast.CallExpr // diff := cmp.Diff(...)
	// done holds the if branches whose failure calls were read (see failCall).
	// One map serves every walk of the function: a walk only reaches the if
	// statements of its own body.
	done map[ifKey]bool
	// marks finds the code markers of the function as walk reads it.
	marks *markerWalk
	// body is the test function's body; locals and structs are read from it
	// when a table needs them (see collectLocals).
	body      *ast.BlockStmt
	collected bool
	locals    map[string][]localDef // tests := []struct{...}{...}
	structs   map[string]*ast.StructType
	// values are what variables were last bound to, in source order
	// (noteValues); params number a helper's parameters (setParams).
	values map[string]string
	params map[string]int
	// detached holds, for each go statement read, whether nothing waits
	// for it (see waitedFor).
	detached map[*ast.GoStmt]bool
	// sawGo is set once a walk of the function met a go statement: only
	// then can a call sit in one.
	sawGo bool
}

type localDef struct {
	pos token.Pos
	lit *ast.CompositeLit
}

func newEnv(ctx *fileCtx, u *unit, body *ast.BlockStmt) *env {
	return &env{
		ctx:   ctx,
		u:     u,
		body:  body,
		marks: &markerWalk{ctx: ctx, u: u},
	}
}

// addParams records the testing and gocheck parameters of a function type.
func (e *env) addParams(ft *ast.FuncType) {
	if ft == nil || ft.Params == nil {
		return
	}
	for _, f := range ft.Params.List {
		switch testingParamKind(f.Type) {
		case "T", "F", "B", "TB":
			for _, n := range f.Names {
				if !e.isTVar(n.Name) {
					e.tvars = append(e.tvars, n.Name)
				}
			}
		case "C":
			fam := famCheck
			if e.ctx.paramFamily(f.Type) == famQt {
				fam = famQt
			}
			for _, n := range f.Names {
				e.setObject(n.Name, fam)
			}
		default:
			if fam := e.ctx.objectParam(f.Type); fam != "" {
				for _, n := range f.Names {
					e.setObject(n.Name, fam)
				}
			}
		}
	}
}

// paramFamily is the family of the package that qualifies a parameter type
// (*qt.C: famQt), "" for an unqualified type.
func (ctx *fileCtx) paramFamily(x ast.Expr) string {
	if s, ok := x.(*ast.StarExpr); ok {
		x = s.X
	}
	if sel, ok := x.(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok {
			return ctx.family(id.Name)
		}
	}
	return ""
}

// objectParam is the family of an assertion object parameter type:
// *assert.Assertions, *require.Assertions, *is.I; "" for other types.
func (ctx *fileCtx) objectParam(x ast.Expr) string {
	s, ok := x.(*ast.StarExpr)
	if !ok {
		return ""
	}
	sel, ok := s.X.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	switch fam := ctx.paramFamily(s); {
	case sel.Sel.Name == "Assertions" && (fam == famAssert || fam == famRequire):
		return fam
	case sel.Sel.Name == "I" && fam == famIs:
		return fam
	}
	return ""
}

// testingParamKind is "T", "F", "B", "TB" or "C" for *pkg.T, *pkg.F, *pkg.B,
// pkg.TB and *check.C (or their dot-imported forms), "" otherwise.
func testingParamKind(x ast.Expr) string {
	star := false
	if s, ok := x.(*ast.StarExpr); ok {
		star, x = true, s.X
	}
	name := ""
	switch v := x.(type) {
	case *ast.SelectorExpr:
		name = v.Sel.Name
	case *ast.Ident:
		name = v.Name
	}
	switch {
	case star && (name == "T" || name == "F" || name == "B" || name == "C"):
		return name
	case !star && name == "TB":
		return name
	}
	return ""
}

// collectLocals records the composite literals bound to names and the struct
// types declared anywhere in the test function's body, for table expansion. It
// runs once, when a table is first looked up.
func (e *env) collectLocals() {
	if e.collected {
		return
	}
	e.collected = true
	e.locals = map[string][]localDef{}
	e.structs = map[string]*ast.StructType{}
	if e.body == nil {
		return
	}
	ast.Inspect(e.body, func(x ast.Node) bool {
		if !e.u.mayHoldFunc(x) {
			return false
		}
		switch v := x.(type) {
		case *ast.AssignStmt:
			if len(v.Lhs) == len(v.Rhs) {
				for i, l := range v.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						if cl := compositeOf(v.Rhs[i]); cl != nil {
							e.locals[id.Name] = append(e.locals[id.Name], localDef{v.Pos(), cl})
						}
					}
				}
			}
		case *ast.ValueSpec:
			if len(v.Names) == len(v.Values) {
				for i, id := range v.Names {
					if cl := compositeOf(v.Values[i]); cl != nil {
						e.locals[id.Name] = append(e.locals[id.Name], localDef{v.Pos(), cl})
					}
				}
			}
		case *ast.TypeSpec:
			if st, ok := v.Type.(*ast.StructType); ok {
				e.structs[v.Name.Name] = st
			}
		}
		return true
	})
}

// compositeOf returns the composite literal x spells, also behind & and
// parentheses (a row &tc{...} of a []*tc); nil for anything else.
func compositeOf(x ast.Expr) *ast.CompositeLit {
	for {
		switch v := x.(type) {
		case *ast.ParenExpr:
			x = v.X
		case *ast.UnaryExpr:
			if v.Op != token.AND {
				return nil
			}
			x = v.X
		case *ast.CompositeLit:
			return v
		default:
			return nil
		}
	}
}

// ifKey names one branch of an if statement: the failure calls of a branch make
// one assertion.
type ifKey struct {
	s   *ast.IfStmt
	els bool
}

// walk reads a test body into n: its assertions and its subtests. It feeds the
// nodes it walks to e.marks, so that a test function is walked only once.
func (e *env) walk(body *ast.BlockStmt, n *node) {
	if body == nil {
		return
	}
	stack := e.newStack()
	var childRanges [][2]token.Pos
	var closures []closure // check := func(...) {...}, to count at each call
	var called map[string]int
	ast.Inspect(body, func(x ast.Node) bool {
		if x == nil {
			e.marks.leave(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			return true
		}
		switch x.(type) {
		case *ast.CompositeLit, *ast.KeyValueExpr, *ast.BinaryExpr, *ast.UnaryExpr, *ast.IndexExpr:
			if !e.u.spells(x, "(") {
				return false // no call, no function: nothing to read in it
			}
		}
		e.marks.visit(x)
		switch v := x.(type) {
		case *ast.GoStmt:
			e.sawGo = true
		case *ast.FuncType:
			e.addParams(v)
		case *ast.AssignStmt:
			e.track(v)
			e.noteValues(v)
			if c, ok := closureOf(v); ok {
				closures = append(closures, c)
			}
		case *ast.RangeStmt:
			e.forget(v)
		case *ast.CallExpr:
			if id, ok := v.Fun.(*ast.Ident); ok && len(closures) > 0 {
				if called == nil {
					called = map[string]int{}
				}
				called[id.Name]++
			}
			if children, ok := e.subtest(v, stack); ok {
				n.children = append(n.children, children...)
				childRanges = append(childRanges, [2]token.Pos{v.Pos(), v.End()})
				e.marks.leave(v)
				return false
			}
			if a, ok := e.assertion(v, stack); ok {
				e.origin(&a)
				a.Arms = e.armsOf(v, stack)
				polled := e.pollChecks(v, &a)
				if rows := e.loopChecks(a, stack); rows != nil {
					n.asserts = append(n.asserts, rows...)
				} else {
					n.asserts = append(n.asserts, a)
				}
				n.asserts = append(n.asserts, polled...)
			} else if !e.sawGo || !e.inDetached(stack) {
				n.calls = testscan.AddCallValues(n.calls, e.callName(v), e.argValues(v))
			} else if name := e.callName(v); name != "" {
				// A call in a goroutine nothing waits for may never run:
				// the checks of what it calls are not the test's.
				n.detached = testscan.AddCall(n.detached, name)
			}
		}
		stack = append(stack, x)
		return true
	})
	e.ctx.stacks = append(e.ctx.stacks, stack[:0])
	n.commented = e.countCommented(body, childRanges)
	n.asserts = e.dropUnused(body, n.asserts, closures, called)
	n.asserts = e.atEachCall(n.asserts, closures, called)
	rowChecks(n)
}

// rowChecks moves the checks of a table row's function literals, read in
// the parent's body, to the subtest of that row that calls them: they run
// there, not in the parent.
func rowChecks(n *node) {
	moved := false
	for _, c := range n.children {
		if len(c.rowFuncs) > 0 {
			moved = true
			break
		}
	}
	if !moved {
		return
	}
	in := func(rs [][2]int, line int) bool {
		for _, r := range rs {
			if line >= r[0] && line <= r[1] {
				return true
			}
		}
		return false
	}
	keep := n.asserts[:0:0]
	for _, a := range n.asserts {
		owner := (*node)(nil)
		for _, c := range n.children {
			if in(c.rowFuncs, a.Line) {
				owner = c
				break
			}
		}
		if owner == nil {
			keep = append(keep, a)
			continue
		}
		owner.asserts = append(owner.asserts, a)
	}
	n.asserts = keep
}

// closure is a function literal a test body assigns to a name: its checks
// run at each call.
type closure struct {
	name     string
	from, to token.Pos
}

// closureOf reads `name := func(...) {...}` (or =).
func closureOf(as *ast.AssignStmt) (closure, bool) {
	if len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return closure{}, false
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	fl, isFunc := as.Rhs[0].(*ast.FuncLit)
	if !ok || !isFunc || id.Name == "_" {
		return closure{}, false
	}
	return closure{id.Name, fl.Pos(), fl.End()}, true
}

// dropUnused drops the checks of a closure the body never calls nor hands
// on (`check := func() {...}; _ = check`): they never run. A closure
// named anywhere else (passed to t.Cleanup, put in a table, returned)
// keeps them.
func (e *env) dropUnused(body *ast.BlockStmt, asserts []testscan.Assertion, closures []closure, called map[string]int) []testscan.Assertion {
	for _, c := range closures {
		if called[c.name] > 0 || usedElsewhere(body, c) {
			continue
		}
		from, to := e.u.line(c.from), e.u.line(c.to)
		asserts = slices.DeleteFunc(asserts, func(a testscan.Assertion) bool { return a.Line >= from && a.Line <= to })
	}
	return asserts
}

// usedElsewhere reports whether body names closure c anywhere but where
// it is assigned (its own `name := func...` and `_ = name`).
func usedElsewhere(body *ast.BlockStmt, c closure) bool {
	used := false
	ast.Inspect(body, func(x ast.Node) bool {
		if used {
			return false
		}
		switch v := x.(type) {
		case *ast.AssignStmt:
			if len(v.Lhs) == 1 && len(v.Rhs) == 1 {
				l, _ := v.Lhs[0].(*ast.Ident)
				r, _ := v.Rhs[0].(*ast.Ident)
				if _, isFunc := v.Rhs[0].(*ast.FuncLit); isFunc && l != nil && l.Name == c.name {
					return false // its definition (a call of itself in it is a call)
				}
				if l != nil && l.Name == "_" && r != nil && r.Name == c.name {
					return false
				}
			}
		case *ast.Ident:
			if v.Name == c.name {
				used = true
			}
		}
		return !used
	})
	return used
}

// maxClosureCalls bounds how often a closure's checks are counted.
const maxClosureCalls = 16

// atEachCall counts the checks of a closure the body calls more than once
// once per call (a segmentSize closure with require.NoError, called for
// six files, stands for the six checks it replaced), up to
// maxClosureCalls.
func (e *env) atEachCall(asserts []testscan.Assertion, closures []closure, called map[string]int) []testscan.Assertion {
	for _, c := range closures {
		k := min(called[c.name], maxClosureCalls)
		if k < 2 {
			continue
		}
		from, to := e.u.line(c.from), e.u.line(c.to)
		var in []testscan.Assertion
		for _, a := range asserts {
			if a.Line >= from && a.Line <= to {
				in = append(in, a)
			}
		}
		for i := 1; i < k; i++ {
			asserts = append(asserts, in...)
		}
	}
	return asserts
}

// newStack is an empty node stack, a spare one when there is one: walks nest,
// one per subtest.
func (e *env) newStack() []ast.Node {
	if k := len(e.ctx.stacks); k > 0 {
		s := e.ctx.stacks[k-1]
		e.ctx.stacks = e.ctx.stacks[:k-1]
		return s
	}
	return make([]ast.Node, 0, 32)
}

// isTVar reports whether name is a *testing.T-like variable.
func (e *env) isTVar(name string) bool {
	for _, v := range e.tvars {
		if v == name {
			return true
		}
	}
	return false
}

// setObject records that name holds an assertion object of family fam.
func (e *env) setObject(name, fam string) {
	if e.objects == nil {
		e.objects = map[string]string{}
	}
	e.objects[name] = fam
}

// track records assertion objects and cmp.Diff results bound to variables.
func (e *env) track(as *ast.AssignStmt) {
	if len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return
	}
	call, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok {
		return
	}
	pkg, fn := e.calleePkg(call)
	switch {
	case fn == "Diff" && pkg == famCmp:
		if e.diffVars == nil {
			e.diffVars = map[string]*ast.CallExpr{}
		}
		e.diffVars[id.Name] = call
	case fn == "New" || fn == "NewRelaxed":
		switch pkg {
		case famAssert, famRequire, famIs, famQt:
			e.setObject(id.Name, pkg)
		}
	}
}

// calleePkg resolves pkg.Fn(...) to the family of pkg and Fn.
func (e *env) calleePkg(call *ast.CallExpr) (family, fn string) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return "", sel.Sel.Name
	}
	return e.ctx.family(id.Name), sel.Sel.Name
}

// isTestingExpr reports whether x is a *testing.T-like value: a known variable
// or s.T() in a suite.
func (e *env) isTestingExpr(x ast.Expr) bool {
	switch v := x.(type) {
	case *ast.Ident:
		return e.isTVar(v.Name)
	case *ast.CallExpr:
		if sel, ok := v.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "T" && len(v.Args) == 0 {
			return true
		}
	case *ast.ParenExpr:
		return e.isTestingExpr(v.X)
	}
	return false
}

// countCommented counts comments inside body, outside the given subtest ranges,
// whose text is an assertion.
func (e *env) countCommented(body *ast.BlockStmt, skip [][2]token.Pos) int {
	count := 0
	cs := e.u.comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].Pos() > body.Lbrace })
	for ; i < len(cs) && cs[i].Pos() < body.Rbrace; i++ {
		c := cs[i]
		inChild := false
		for _, r := range skip {
			if c.Pos() >= r[0] && c.Pos() < r[1] {
				inChild = true
				break
			}
		}
		if !inChild && isCommentedAssertion(c.Text) {
			count++
		}
	}
	return count
}

// callName names a call that may reach a helper of the package for
// TestCase.Calls: "f" for f(...) and f[T](...), ".m" for x.m(...) on a value;
// "" for builtins, calls into imported packages and calls of expressions.
func (e *env) callName(call *ast.CallExpr) string {
	fun := call.Fun
	switch v := fun.(type) {
	case *ast.IndexExpr:
		fun = v.X
	case *ast.IndexListExpr:
		fun = v.X
	}
	switch v := fun.(type) {
	case *ast.Ident:
		if builtins[v.Name] {
			return ""
		}
		return v.Name
	case *ast.SelectorExpr:
		if id, ok := v.X.(*ast.Ident); ok {
			if _, pkg := e.ctx.pkgs[id.Name]; pkg || e.isTVar(id.Name) {
				return "" // pkg.F, or t.Helper(), t.Cleanup(...)
			}
		}
		return "." + v.Sel.Name
	}
	return ""
}

// builtins are Go's predeclared functions, which no helper can be named after
// without shadowing them.
var builtins = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true,
	"copy": true, "delete": true, "imag": true, "len": true, "make": true,
	"max": true, "min": true, "new": true, "panic": true, "print": true,
	"println": true, "real": true, "recover": true,
}
