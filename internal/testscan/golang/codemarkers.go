package golang

import (
	"bytes"
	"go/ast"
	"go/token"
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// markerList is the code markers found in a walk, in the order found.
type markerList struct {
	suppressions, bypasses, comparisons, underTest, placeholders []testscan.Marker
}

// markerWalk finds code markers: discarded and swallowed errors, forced exits in
// tests and literal comparisons. It sees the nodes of a unit in the order
// ast.Inspect gives them: markers feeds it the declarations, and env.walk, which
// walks a test function anyway, feeds it the nodes of the test functions.
type markerWalk struct {
	ctx   *fileCtx
	u     *unit
	found markerList
	funcs []*ast.FuncType // the types of the enclosing functions, innermost last
	decl  *ast.FuncDecl
	early bool       // decl is a function whose calls exitCall reads
	runs  bool       // decl calls m.Run()
	stack []ast.Node // walk's, kept for the next walk
}

// startFunc begins the walk of a test function that env.walk reads: it reads
// the function's header; env.walk feeds it the body.
func (m *markerWalk) startFunc(fd *ast.FuncDecl) {
	m.visit(fd)
	if fd.Recv != nil {
		m.walk(fd.Recv)
	}
	m.walk(fd.Type)
}

// endFunc ends the walk of a test function and files its markers for markers.
func (m *markerWalk) endFunc(fd *ast.FuncDecl) {
	m.leave(fd)
	if m.ctx.walked == nil {
		m.ctx.walked = map[*ast.FuncDecl]markerList{}
	}
	m.ctx.walked[fd] = m.found
}

// walk feeds the nodes of n to visit and leave, skipping the subtrees that hold
// nothing for them and the test functions that env.walk read.
func (m *markerWalk) walk(n ast.Node) {
	if n == nil {
		return
	}
	stack := m.stack[:0]
	ast.Inspect(n, func(x ast.Node) bool {
		if x == nil {
			m.leave(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			return true
		}
		if fd, ok := x.(*ast.FuncDecl); ok {
			if found, ok := m.ctx.walked[fd]; ok {
				m.found.suppressions = append(m.found.suppressions, found.suppressions...)
				m.found.bypasses = append(m.found.bypasses, found.bypasses...)
				m.found.comparisons = append(m.found.comparisons, found.comparisons...)
				m.found.underTest = append(m.found.underTest, found.underTest...)
				m.found.placeholders = append(m.found.placeholders, found.placeholders...)
				return false
			}
		}
		if !m.u.mayHoldFunc(x) && (!m.early || !m.u.spells(x, "Exit") && !m.u.spells(x, "Run")) && !m.u.spells(x, "panic") {
			return false // nothing in x for visit
		}
		stack = append(stack, x)
		m.visit(x)
		return true
	})
	m.stack = stack[:0]
}

// visit reads a node as ast.Inspect enters it.
func (m *markerWalk) visit(x ast.Node) {
	switch v := x.(type) {
	case *ast.FuncDecl:
		m.funcs = append(m.funcs, v.Type)
		m.decl, m.runs, m.early = v, false, m.ctx.exitsEarly(v)
	case *ast.CallExpr:
		m.exitCall(v)
		m.placeholderCall(v)
	case *ast.FuncLit:
		m.funcs = append(m.funcs, v.Type)
	case *ast.AssignStmt:
		m.discarded(v)
	case *ast.IfStmt:
		var ft *ast.FuncType
		if len(m.funcs) > 0 {
			ft = m.funcs[len(m.funcs)-1]
		}
		m.swallowed(v, ft)
		m.literalsIn(v.Cond, returnedLiteral(v.Body.List))
		m.underTestIn(v.Cond, cannedReturn(v.Body))
	case *ast.SwitchStmt:
		m.switchLiterals(v)
	}
}

// leave reads a node as ast.Inspect leaves it.
func (m *markerWalk) leave(x ast.Node) {
	switch v := x.(type) {
	case *ast.FuncLit:
		m.funcs = m.funcs[:len(m.funcs)-1]
	case *ast.FuncDecl:
		m.funcs = m.funcs[:len(m.funcs)-1]
		if v.Name.Name == "TestMain" && v.Recv == nil && v.Body != nil && !m.runs && !m.ctx.out.Partial {
			m.add(&m.found.bypasses, v, "forced-exit", "TestMain without m.Run")
		}
		m.decl, m.early = nil, false
	}
}

// mayHoldFunc is false for an expression whose source does not spell "func":
// it holds no function literal, so no statement. markers skips such
// expressions, unless they may hold a call that exitCall reads.
func (u *unit) mayHoldFunc(x ast.Node) bool {
	switch x.(type) {
	case *ast.CompositeLit, *ast.CallExpr, *ast.BinaryExpr, *ast.UnaryExpr, *ast.KeyValueExpr,
		*ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.SliceExpr, *ast.StarExpr,
		*ast.ParenExpr, *ast.TypeAssertExpr, *ast.ArrayType, *ast.MapType, *ast.ChanType,
		*ast.StructType, *ast.InterfaceType, *ast.FuncType, *ast.Ellipsis:
		return u.spells(x, "func")
	}
	return true
}

// spells reports whether the source of n contains word.
func (u *unit) spells(n ast.Node, word string) bool {
	from, to := u.off(n.Pos()), u.off(n.End())
	return from < to && bytes.Contains(u.src[from:to], []byte(word))
}

func (m *markerWalk) add(list *[]testscan.Marker, n ast.Node, kind, text string) {
	*list = append(*list, testscan.Marker{Line: m.u.line(n.Pos()), Kind: kind, Text: text})
}

// discarded reports `_ = err` and `_ = f.Close()` (all left-hand sides blank).
func (m *markerWalk) discarded(as *ast.AssignStmt) {
	if len(as.Rhs) != 1 || (as.Tok != token.ASSIGN && as.Tok != token.DEFINE) {
		return
	}
	for _, l := range as.Lhs {
		if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
			return
		}
	}
	hit := false
	switch r := as.Rhs[0].(type) {
	case *ast.Ident:
		hit = isErrName(r.Name)
	case *ast.CallExpr:
		if sel, ok := r.Fun.(*ast.SelectorExpr); ok {
			hit = closeLike[sel.Sel.Name]
		}
	}
	if hit {
		m.add(&m.found.suppressions, as, "discarded-error", m.u.text(as))
	}
}

func isErrName(n string) bool {
	return n == "err" || strings.HasSuffix(n, "Err") || strings.HasSuffix(n, "err")
}

// swallowed reports `if err != nil {}` and `if err != nil { return nil }` in a
// function that returns an error.
func (m *markerWalk) swallowed(s *ast.IfStmt, ft *ast.FuncType) {
	be, ok := s.Cond.(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ || !isNil(be.Y) {
		return
	}
	id, ok := be.X.(*ast.Ident)
	if !ok || !isErrName(id.Name) {
		return
	}
	if len(s.Body.List) == 0 && s.Else == nil {
		m.add(&m.found.suppressions, s, "swallowed-error", "if "+id.Name+" != nil {}")
		return
	}
	if len(s.Body.List) != 1 || ft == nil || ft.Results == nil || len(ft.Results.List) == 0 {
		return
	}
	ret, ok := s.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 || !isNil(ret.Results[len(ret.Results)-1]) {
		return
	}
	last := ft.Results.List[len(ft.Results.List)-1]
	if t, ok := last.Type.(*ast.Ident); ok && t.Name == "error" {
		m.add(&m.found.suppressions, s, "swallowed-error", "if "+id.Name+" != nil { "+m.u.text(ret)+" }")
	}
}

// exitsEarly reports whether a top-level function is one where os.Exit(0) ends
// the test run with success whatever the tests would do.
func (ctx *fileCtx) exitsEarly(fd *ast.FuncDecl) bool {
	if fd == nil || fd.Recv != nil {
		return false
	}
	name := fd.Name.Name
	// An init runs before the tests of its package and of every package
	// that imports it, production code included.
	return name == "TestMain" || name == "init" || (ctx.isTest && (isTestName(name, "Test") || isTestName(name, "Fuzz")))
}

// exitCall reports os.Exit(0) in a test function, and notes m.Run() calls.
func (m *markerWalk) exitCall(call *ast.CallExpr) {
	if !m.early {
		return
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return
	}
	if sel.Sel.Name == "Run" && len(call.Args) == 0 {
		m.runs = true
	}
	if id, ok := sel.X.(*ast.Ident); ok && sel.Sel.Name == "Exit" && len(call.Args) == 1 {
		pkg := ""
		switch {
		case m.ctx.family(id.Name) == famOS:
			pkg = "os"
		case id.Name == "syscall" || id.Name == "unix":
			pkg = id.Name
		}
		if bl, ok := call.Args[0].(*ast.BasicLit); ok && bl.Value == "0" && pkg != "" {
			m.add(&m.found.bypasses, call, "forced-exit", pkg+".Exit(0)")
		}
	}
}

// placeholderCall reports panic("not implemented") and its spellings: a
// panic whose message, a string literal or the literal of errors.New or
// fmt.Errorf, says the code is not written (testscan.PlaceholderMessage).
func (m *markerWalk) placeholderCall(call *ast.CallExpr) {
	id, ok := call.Fun.(*ast.Ident)
	if !ok || id.Name != "panic" || len(call.Args) != 1 {
		return
	}
	arg := call.Args[0]
	if inner, ok := arg.(*ast.CallExpr); ok && len(inner.Args) > 0 {
		if sel, ok := inner.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "New" || sel.Sel.Name == "Errorf") {
			arg = inner.Args[0]
		}
	}
	bl, ok := arg.(*ast.BasicLit)
	if !ok || bl.Kind != token.STRING {
		return
	}
	msg, err := strconv.Unquote(bl.Value)
	if err != nil || !testscan.PlaceholderMessage(msg) {
		return
	}
	m.add(&m.found.placeholders, call, "not-implemented", "panic("+m.u.text(call.Args[0])+")")
}

// literalsIn reports the non-trivial literal operands of == and != in x.
func (m *markerWalk) literalsIn(x ast.Expr, ret string) {
	if x == nil {
		return
	}
	ast.Inspect(x, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			if v.Op == token.EQL || v.Op == token.NEQ {
				m.literal(v.X, ret)
				m.literal(v.Y, ret)
			}
		}
		return true
	})
}

// returnedLiteral is the first literal a branch returns at once
// (`return 42, nil`: "42"), "" when it does not.
func returnedLiteral(body []ast.Stmt) string {
	if len(body) == 0 {
		return ""
	}
	ret, ok := body[0].(*ast.ReturnStmt)
	if !ok {
		return ""
	}
	for _, r := range ret.Results {
		switch v := r.(type) {
		case *ast.BasicLit:
			return literalText(v)
		case *ast.UnaryExpr:
			if bl, ok := v.X.(*ast.BasicLit); ok && v.Op == token.SUB {
				return "-" + literalText(bl)
			}
		}
	}
	return ""
}

// switchLiterals reports case literals of a tagged switch and comparisons in the
// cases of a tagless one.
func (m *markerWalk) switchLiterals(s *ast.SwitchStmt) {
	m.literalsIn(s.Tag, "")
	for _, c := range s.Body.List {
		cc, ok := c.(*ast.CaseClause)
		if !ok {
			continue
		}
		ret := returnedLiteral(cc.Body)
		for _, x := range cc.List {
			if s.Tag != nil {
				m.literal(x, ret)
			} else {
				m.literalsIn(x, ret)
			}
		}
	}
}

func (m *markerWalk) literal(x ast.Expr, ret string) {
	text := ""
	switch v := x.(type) {
	case *ast.BasicLit:
		text = literalText(v)
	case *ast.UnaryExpr:
		if bl, ok := v.X.(*ast.BasicLit); ok && v.Op == token.SUB {
			text = "-" + literalText(bl)
		}
	}
	switch text {
	case "", "0", "1", "-1", `""`:
		return
	}
	m.add(&m.found.comparisons, x, "literal", text)
	m.found.comparisons[len(m.found.comparisons)-1].Value = ret
}

func literalText(bl *ast.BasicLit) string {
	if bl.Kind == token.STRING {
		return normString(bl.Value)
	}
	return strings.ToLower(bl.Value)
}

// underTestIn reports a condition of production code that asks whether it
// runs under `go test`: testing.Testing(), flag.Lookup("test.v") (the
// idiom before Go 1.21), or a test-mode variable (os.Getenv("TESTING")).
func (m *markerWalk) underTestIn(cond ast.Expr, canned bool) {
	kind := "under-test"
	if canned {
		kind = "under-test-canned"
	}
	if m.ctx.isTest || cond == nil {
		return
	}
	ast.Inspect(cond, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		switch {
		case m.ctx.family(id.Name) == famTesting && sel.Sel.Name == "Testing" && len(call.Args) == 0:
			m.add(&m.found.underTest, call, kind, "testing.Testing()")
		case id.Name == "os" && (sel.Sel.Name == "Getenv" || sel.Sel.Name == "LookupEnv") && len(call.Args) == 1:
			// os.Getenv("TESTING"): a test-mode variable.
			if bl, ok := call.Args[0].(*ast.BasicLit); ok && bl.Kind == token.STRING && testscan.TestModeVar(strings.Trim(bl.Value, "`\"")) {
				m.add(&m.found.underTest, call, kind, "os."+sel.Sel.Name+"("+bl.Value+")")
			}
		case id.Name == "flag" && sel.Sel.Name == "Lookup" && len(call.Args) == 1:
			if bl, ok := call.Args[0].(*ast.BasicLit); ok && bl.Kind == token.STRING && strings.HasPrefix(strings.Trim(bl.Value, "`\""), "test.") {
				m.add(&m.found.underTest, call, kind, "flag.Lookup("+bl.Value+")")
			}
		}
		return true
	})
}

// cannedReturn reports a branch that starts by returning literals only
// (`return 42, nil`): a canned answer.
func cannedReturn(body *ast.BlockStmt) bool {
	if body == nil || len(body.List) == 0 {
		return false
	}
	ret, ok := body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 {
		return false
	}
	for _, r := range ret.Results {
		switch v := r.(type) {
		case *ast.BasicLit, *ast.CompositeLit:
		case *ast.Ident:
			if v.Name != "true" && v.Name != "false" && v.Name != "nil" {
				return false
			}
		case *ast.UnaryExpr:
			if _, ok := v.X.(*ast.BasicLit); !ok {
				return false
			}
		default:
			return false
		}
	}
	return true
}
