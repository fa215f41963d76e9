package golang

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// commentMarker reads a suppression directive from a comment: //nolint[:list],
// //lint:ignore CHECK, //#nosec RULE (all Kind "nolint") and coverage ignore
// comments. The text is the directive without its explanation.
func commentMarker(comment string) (kind, text string, ok bool) {
	body := comment
	switch {
	case strings.HasPrefix(body, "//"):
		body = body[2:]
	case strings.HasPrefix(body, "/*"):
		body = strings.TrimSuffix(body[2:], "*/")
	}
	body = strings.TrimSpace(body)
	for _, part := range strings.Split(body, "//") {
		part = strings.TrimSpace(part)
		if d, ok := nolint(part); ok {
			return "nolint", d, true
		}
	}
	lower := strings.ToLower(body)
	for _, w := range []string{"coverage-ignore", "coverage:ignore", "coverage: ignore"} {
		if strings.Contains(lower, w) {
			return "coverage-ignore", strings.ReplaceAll(w, " ", ""), true
		}
	}
	return "", "", false
}

// nolint reads one directive at the start of s.
func nolint(s string) (string, bool) {
	lower := strings.ToLower(s)
	switch {
	case strings.HasPrefix(lower, "nolint"):
		rest := s[len("nolint"):]
		if rest == "" || rest[0] == ' ' || rest[0] == '\t' {
			return "nolint", true
		}
		if rest[0] != ':' {
			return "", false
		}
		rest = strings.TrimLeft(rest[1:], " ")
		if i := strings.IndexAny(rest, " \t"); i >= 0 {
			rest = rest[:i]
		}
		return "nolint:" + strings.ToLower(rest), true
	case strings.HasPrefix(lower, "lint:ignore ") || strings.HasPrefix(lower, "lint:file-ignore "):
		f := strings.Fields(s)
		if len(f) >= 2 {
			return f[0] + " " + f[1], true
		}
	case strings.HasPrefix(lower, "#nosec"):
		f := strings.Fields(s)
		if len(f) >= 2 && len(f[1]) > 1 && (f[1][0] == 'G' || f[1][0] == 'g') {
			return "#nosec " + f[1], true
		}
		return "#nosec", true
	}
	return "", false
}

// closeLike are the methods whose dropped error `_ = x.Close()` reports.
var closeLike = map[string]bool{
	"Close": true, "Write": true, "WriteString": true, "Flush": true, "Sync": true, "Shutdown": true,
}

// markers walks a unit for code markers: discarded and swallowed errors,
// forced exits in tests, and literal comparisons.
func (ctx *fileCtx) markers(u *unit) {
	for _, c := range u.comments {
		if kind, text, ok := commentMarker(c.Text); ok {
			ctx.out.Suppressions = append(ctx.out.Suppressions, testscan.Marker{Line: u.line(c.Pos()), Kind: kind, Text: text})
		}
	}
	var funcs []*ast.FuncType
	var stack []ast.Node
	var decl *ast.FuncDecl
	runs := false
	ast.Inspect(u.file, func(x ast.Node) bool {
		if x == nil {
			switch top := stack[len(stack)-1].(type) {
			case *ast.FuncLit:
				funcs = funcs[:len(funcs)-1]
			case *ast.FuncDecl:
				funcs = funcs[:len(funcs)-1]
				if top.Name.Name == "TestMain" && top.Recv == nil && top.Body != nil && !runs && !ctx.out.Partial {
					ctx.add(&ctx.out.Bypasses, u, top, "forced-exit", "TestMain without m.Run")
				}
				decl = nil
			}
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, x)
		switch v := x.(type) {
		case *ast.FuncDecl:
			funcs = append(funcs, v.Type)
			decl, runs = v, false
		case *ast.CallExpr:
			ctx.exitCall(u, v, decl, &runs)
		case *ast.FuncLit:
			funcs = append(funcs, v.Type)
		case *ast.AssignStmt:
			ctx.discarded(u, v)
		case *ast.IfStmt:
			var ft *ast.FuncType
			if len(funcs) > 0 {
				ft = funcs[len(funcs)-1]
			}
			ctx.swallowed(u, v, ft)
			ctx.literalsIn(u, v.Cond)
		case *ast.SwitchStmt:
			ctx.switchLiterals(u, v)
		}
		return true
	})
}

func (ctx *fileCtx) add(list *[]testscan.Marker, u *unit, n ast.Node, kind, text string) {
	*list = append(*list, testscan.Marker{Line: u.line(n.Pos()), Kind: kind, Text: text})
}

// discarded reports `_ = err` and `_ = f.Close()` (all left-hand sides blank).
func (ctx *fileCtx) discarded(u *unit, as *ast.AssignStmt) {
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
		ctx.add(&ctx.out.Suppressions, u, as, "discarded-error", u.text(as))
	}
}

func isErrName(n string) bool {
	return n == "err" || strings.HasSuffix(n, "Err") || strings.HasSuffix(n, "err")
}

// swallowed reports `if err != nil {}` and `if err != nil { return nil }` in a
// function that returns an error.
func (ctx *fileCtx) swallowed(u *unit, s *ast.IfStmt, ft *ast.FuncType) {
	be, ok := s.Cond.(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ || !isNil(be.Y) {
		return
	}
	id, ok := be.X.(*ast.Ident)
	if !ok || !isErrName(id.Name) {
		return
	}
	if len(s.Body.List) == 0 && s.Else == nil {
		ctx.add(&ctx.out.Suppressions, u, s, "swallowed-error", "if "+id.Name+" != nil {}")
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
		ctx.add(&ctx.out.Suppressions, u, s, "swallowed-error", "if "+id.Name+" != nil { "+u.text(ret)+" }")
	}
}

// exitsEarly reports whether a top-level function is one where os.Exit(0) ends
// the test run with success whatever the tests would do.
func (ctx *fileCtx) exitsEarly(fd *ast.FuncDecl) bool {
	if fd == nil || fd.Recv != nil {
		return false
	}
	name := fd.Name.Name
	return name == "TestMain" || (ctx.isTest && (isTestName(name, "Test") || isTestName(name, "Fuzz") || name == "init"))
}

// exitCall reports os.Exit(0) in a test function, and notes m.Run() calls.
func (ctx *fileCtx) exitCall(u *unit, call *ast.CallExpr, fd *ast.FuncDecl, runs *bool) {
	if !ctx.exitsEarly(fd) {
		return
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return
	}
	if sel.Sel.Name == "Run" && len(call.Args) == 0 {
		*runs = true
	}
	if id, ok := sel.X.(*ast.Ident); ok && sel.Sel.Name == "Exit" && ctx.family(id.Name) == famOS && len(call.Args) == 1 {
		if bl, ok := call.Args[0].(*ast.BasicLit); ok && bl.Value == "0" {
			ctx.add(&ctx.out.Bypasses, u, call, "forced-exit", "os.Exit(0)")
		}
	}
}

// literalsIn reports the non-trivial literal operands of == and != in x.
func (ctx *fileCtx) literalsIn(u *unit, x ast.Expr) {
	if x == nil {
		return
	}
	ast.Inspect(x, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			if v.Op == token.EQL || v.Op == token.NEQ {
				ctx.literal(u, v.X)
				ctx.literal(u, v.Y)
			}
		}
		return true
	})
}

// switchLiterals reports case literals of a tagged switch and comparisons in the
// cases of a tagless one.
func (ctx *fileCtx) switchLiterals(u *unit, s *ast.SwitchStmt) {
	ctx.literalsIn(u, s.Tag)
	for _, c := range s.Body.List {
		cc, ok := c.(*ast.CaseClause)
		if !ok {
			continue
		}
		for _, x := range cc.List {
			if s.Tag != nil {
				ctx.literal(u, x)
			} else {
				ctx.literalsIn(u, x)
			}
		}
	}
}

func (ctx *fileCtx) literal(u *unit, x ast.Expr) {
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
	ctx.add(&ctx.out.Comparisons, u, x, "literal", text)
}

func literalText(bl *ast.BasicLit) string {
	if bl.Kind == token.STRING {
		return normString(bl.Value)
	}
	return strings.ToLower(bl.Value)
}
