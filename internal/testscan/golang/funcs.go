package golang

import (
	"go/ast"
	"go/token"
	"strings"
	"unicode"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// funcs reads the functions of a unit of a production file (File.Funcs):
// the exits of those returning an error, and the branches that answer a
// literal with a literal. init and _ functions are left out: a file may
// declare several, so two versions could not be matched function by
// function (and masking keeps only the changed ones).
func (ctx *fileCtx) funcs(u *unit) {
	if ctx.isTest || u.loose {
		return
	}
	for _, d := range u.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || fd.Name == nil || fd.Name.Name == "init" || fd.Name.Name == "_" {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) > 0 {
			name = recvTypeName(fd.Recv.List[0].Type) + "." + name
		}
		f := testscan.Func{Name: name, Line: u.line(fd.Pos())}
		w := funcWalk{u: u, f: &f, own: true, exits: returnsError(fd.Type), errPath: map[*ast.ReturnStmt]bool{}}
		w.walk(fd.Body)
		// A deprecated function kept for compatibility may well stop
		// failing (its body a no-op): that is no error path hidden.
		if !testscan.KeepsExits(f.Exits) || deprecated(fd.Doc) {
			f.Exits = nil
		}
		ctx.out.Funcs = append(ctx.out.Funcs, f)
	}
}

// returnsError reports a function type whose last result is an error.
func returnsError(ft *ast.FuncType) bool {
	if ft == nil || ft.Results == nil || len(ft.Results.List) == 0 {
		return false
	}
	id, ok := ft.Results.List[len(ft.Results.List)-1].Type.(*ast.Ident)
	return ok && id.Name == "error"
}

// funcWalk reads one function declaration's body.
type funcWalk struct {
	u *unit
	f *testscan.Func
	// own is set while the walk reads the declared function's own body,
	// not a function literal in it: its panics are the function's error
	// exits, whatever it returns.
	own bool
	// exits is set while the walk reads returns of the declared function
	// itself, which returns an error; a function literal's returns are
	// its own.
	exits bool
	// errPath holds the returns of the bodies of `if err != nil` (see
	// errorCheck): whatever they return is the error path's.
	errPath map[*ast.ReturnStmt]bool
}

func (w funcWalk) walk(body *ast.BlockStmt) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch v := n.(type) {
		case nil:
			return false
		case *ast.FuncLit:
			inner := w
			inner.own, inner.exits = false, false
			inner.walk(v.Body)
			return false
		case *ast.CallExpr:
			if id, ok := v.Fun.(*ast.Ident); ok && w.own && id.Name == "panic" && len(v.Args) == 1 {
				w.f.AddExit(testscan.Exit{Line: w.u.line(v.Pos()), Kind: testscan.ExitError, Text: w.u.flat(v)})
			}
		case *ast.ReturnStmt:
			if w.exits {
				w.exit(v)
			}
		case *ast.IfStmt:
			if errorCheck(v.Cond) {
				for _, st := range v.Body.List {
					if r, ok := st.(*ast.ReturnStmt); ok {
						w.errPath[r] = true
					}
				}
			}
			if subj, lit, ok := w.literalTest(v.Cond); ok {
				if ans := w.answer(v.Body.List); ans != "" {
					w.f.AddBranch(testscan.Branch{Line: w.u.line(v.Pos()), Subject: subj, Literal: lit, Answer: ans})
				}
			}
		case *ast.SwitchStmt:
			w.switchBranches(v)
		}
		return w.u.mayHoldFunc(n)
	})
}

// exit records a return of a function whose last result is an error. It
// is an error exit when that result is an error made there (a call whose
// name says so, `fmt.Errorf(...)`, `errors.New(...)`, `newParseError(...)`;
// a `&ParseError{...}`; a sentinel `ErrNotFound`) or when the return is the
// body of an `if err != nil`; an empty one when that result is nil
// (Values holds the results before it). Another return, `return err` after
// the checks or `return f()`, passes on what may be nil: other.
func (w funcWalk) exit(r *ast.ReturnStmt) {
	e := testscan.Exit{Line: w.u.line(r.Pos()), Kind: testscan.ExitOther, Text: w.u.flat(r)}
	if n := len(r.Results); n > 0 {
		last := r.Results[n-1]
		switch {
		case isNil(last):
			e.Kind = testscan.ExitEmpty
		case w.errPath[r] || madeError(last):
			e.Kind = testscan.ExitError
		}
		if e.Kind != testscan.ExitOther && n > 1 {
			e.Values = make([]string, n-1)
			for i, x := range r.Results[:n-1] {
				e.Values[i] = w.u.flat(x)
			}
		}
	}
	w.f.AddExit(e)
}

// errorCheck reports a condition that tests an error variable against
// nil (`err != nil`, `err != nil && !errors.Is(err, fs.ErrNotExist)`).
func errorCheck(cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		be, ok := n.(*ast.BinaryExpr)
		if found || !ok {
			return !found
		}
		if be.Op == token.NEQ {
			x, y := be.X, be.Y
			if isNil(x) {
				x, y = y, x
			}
			if id, ok := x.(*ast.Ident); ok && isNil(y) && isErrName(id.Name) {
				found = true
			}
		}
		return !found
	})
	return found
}

// madeError reports an expression that makes an error: a call of a
// function whose name says error (`fmt.Errorf`, `errors.New`, `newErr`),
// a composite literal of an error type (`&ParseError{...}`), or a
// sentinel (`ErrClosed`, `io.ErrUnexpectedEOF`, `errClosed`).
func madeError(x ast.Expr) bool {
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = u.X
	}
	name := ""
	switch v := x.(type) {
	case *ast.CallExpr:
		if sel, ok := v.Fun.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && (id.Name == "errors" || id.Name == "xerrors") {
				return true
			}
		}
		return strings.Contains(strings.ToLower(callName(v.Fun)), "err")
	case *ast.CompositeLit:
		return strings.Contains(strings.ToLower(callName(v.Type)), "err")
	case *ast.Ident:
		name = v.Name
	case *ast.SelectorExpr:
		name = v.Sel.Name
	}
	return strings.HasPrefix(name, "Err") || len(name) > 3 && strings.HasPrefix(name, "err") && unicode.IsUpper(rune(name[3]))
}

// callName is the last name of a callee or type (`fmt.Errorf`: Errorf,
// `pkg.T[K]`: T), "" for anything else.
func callName(x ast.Expr) string {
	for {
		switch v := x.(type) {
		case *ast.Ident:
			return v.Name
		case *ast.SelectorExpr:
			return v.Sel.Name
		case *ast.IndexExpr:
			x = v.X
		case *ast.IndexListExpr:
			x = v.X
		case *ast.ParenExpr:
			x = v.X
		default:
			return ""
		}
	}
}

// switchBranches reads the clauses of a switch on a variable whose cases
// are literals (`switch x { case 5: return "five" }`), and those of a
// tagless switch that test a variable against a literal.
func (w funcWalk) switchBranches(s *ast.SwitchStmt) {
	subj := ""
	if s.Tag != nil {
		if subj = w.subject(s.Tag); subj == "" {
			return
		}
	}
	for _, c := range s.Body.List {
		cc, ok := c.(*ast.CaseClause)
		if !ok || len(cc.List) == 0 {
			continue
		}
		b := testscan.Branch{Line: w.u.line(cc.Pos()), Subject: subj, Case: true}
		if s.Tag == nil {
			if len(cc.List) != 1 {
				continue
			}
			var ok bool
			if b.Subject, b.Literal, ok = w.literalTest(cc.List[0]); !ok {
				continue
			}
		} else {
			lits := make([]string, 0, len(cc.List))
			for _, x := range cc.List {
				lit := literalOf(x)
				if lit == "" {
					lits = nil
					break
				}
				lits = append(lits, lit)
			}
			if len(lits) == 0 {
				continue
			}
			b.Literal = strings.Join(lits, ", ")
		}
		if b.Answer = w.answer(cc.Body); b.Answer != "" {
			w.f.AddBranch(b)
		}
	}
}

// literalTest reads a condition `x == lit` or `lit == x` whose x is a
// variable (a name or a selector of names): a named constant
// (`x == MaxSize`, `kind == reflect.Int`) is not a literal.
func (w funcWalk) literalTest(cond ast.Expr) (subject, lit string, ok bool) {
	for {
		p, isParen := cond.(*ast.ParenExpr)
		if !isParen {
			break
		}
		cond = p.X
	}
	be, isBin := cond.(*ast.BinaryExpr)
	if !isBin || be.Op != token.EQL {
		return "", "", false
	}
	x, y := be.X, be.Y
	if literalOf(x) != "" {
		x, y = y, x
	}
	subject, lit = w.subject(x), literalOf(y)
	return subject, lit, subject != "" && lit != ""
}

// subject is the text of a variable: a name other than a predeclared
// constant, or a selector of names; "" for anything else.
func (w funcWalk) subject(x ast.Expr) string {
	root := x
	for sel, ok := root.(*ast.SelectorExpr); ok; sel, ok = root.(*ast.SelectorExpr) {
		root = sel.X
	}
	id, ok := root.(*ast.Ident)
	if !ok || id.Name == "nil" || id.Name == "true" || id.Name == "false" || id.Name == "_" {
		return ""
	}
	return w.u.flat(x)
}

// literalOf is the normalized text of a number, string or character
// literal, negative or not; "" for anything else and for "", which a guard
// compares with more often than a special case does.
func literalOf(x ast.Expr) string {
	switch v := x.(type) {
	case *ast.BasicLit:
		if t := literalText(v); t != `""` {
			return t
		}
	case *ast.UnaryExpr:
		if bl, ok := v.X.(*ast.BasicLit); ok && v.Op == token.SUB {
			return "-" + literalText(bl)
		}
	}
	return ""
}

// answer is the literal a branch answers with at once: its first statement
// returns only literals (`return 42, nil`: "42") or assigns one literal to
// one variable (`kind = "a"`); "" otherwise. A return that also carries an
// error is a guard, not an answer.
func (w funcWalk) answer(body []ast.Stmt) string {
	if len(body) == 0 {
		return ""
	}
	switch s := body[0].(type) {
	case *ast.ReturnStmt:
		ans := ""
		for _, r := range s.Results {
			switch {
			case isNil(r):
			case isBoolLit(r):
				if ans == "" {
					ans = r.(*ast.Ident).Name
				}
			default:
				lit := literalOf(r)
				if bl, ok := r.(*ast.BasicLit); ok && lit == "" {
					lit = literalText(bl) // "" answers as well as any
				}
				if lit == "" {
					return ""
				}
				if ans == "" {
					ans = lit
				}
			}
		}
		return ans
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 || len(s.Rhs) != 1 || (s.Tok != token.ASSIGN && s.Tok != token.DEFINE) {
			return ""
		}
		if isBoolLit(s.Rhs[0]) {
			return s.Rhs[0].(*ast.Ident).Name
		}
		if bl, ok := s.Rhs[0].(*ast.BasicLit); ok {
			return literalText(bl)
		}
		return literalOf(s.Rhs[0])
	}
	return ""
}

// flat is the source of n with each run of white space made one space:
// gofmt's layout, which Go code keeps, with no scan of its declaration's
// tokens (text's normalization costs a tenth of a production file's
// extraction when every return of every function is read).
func (u *unit) flat(n ast.Node) string {
	src := u.src[u.off(n.Pos()):u.off(n.End())]
	var b strings.Builder
	b.Grow(len(src))
	space := false
	for _, c := range src {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteByte(c)
	}
	return b.String()
}
