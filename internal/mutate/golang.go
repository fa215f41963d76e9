package mutate

import (
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"
)

// goMutator mutates Go source on its syntax tree (go/ast): the operator or
// expression a mutant changes is a node, never a run of text, so nothing
// in a string or a comment is touched.
type goMutator struct{}

func init() { register(goMutator{}) }

func (goMutator) Name() string { return "go" }

func (goMutator) Handles(p string) bool {
	return ext(p) == ".go" && !strings.HasSuffix(p, "_test.go")
}

// goArid are the Go statements no mutant is made in: breaking them is not
// a change a reviewer would ask a test for (Petrović and Ivanković's arid
// nodes: logging, error plumbing, plain accessors; defers are skipped
// whole). Each is matched against a whole statement, its text on one line
// (an if statement's header only), never against a line that may hold
// other code: `if x > max { log.Print(x) }` written on one line keeps its
// comparison's mutant.
var goArid = []*lazyre.Regexp{
	// Logging: a statement that is one call of a logging package, or of
	// a function or method named for a log level, however the project
	// spells its logger (urfave/cli's tracef, logger.Debugf, c.logf).
	// Printing is not arid: a command's output is often its feature.
	lazyre.New(`^(log|slog|klog|glog|logger|logrus|zap|zerolog)\.\w+\(.*\)$`),
	lazyre.New(`^([\w.]+\.)?(?i:trace|tracef|debug|debugf|info|infof|warn|warnf|warning|warningf|log|logf|logln)\(.*\)$`),
	// Error plumbing: the check, and a return of the error (wrapped or
	// not) whose other results are plain names or zero values.
	lazyre.New(`^if (\w+(, \w+)* :?= [^;]*; )?err != nil \{$`),
	lazyre.New(`^return ((nil|0|""|false|true|[A-Za-z_]\w*|[A-Za-z_]\w*\{\}), )*(err|fmt\.Errorf\(.*\)|errors\.\w+\(.*\)|\w+\.Wrap\w*\(.*\))$`),
	lazyre.New(`^panic\(.*\)$`),
	// A plain accessor's return.
	lazyre.New(`^return [A-Za-z_]\w*\.[A-Za-z_]\w*$`),
}

// goAridStmt reports whether a statement's text (on one line) is arid.
func goAridStmt(text string) bool {
	for _, re := range goArid {
		if re.MatchString(text) {
			return true
		}
	}
	return false
}

// oneLine is src[from:to] with its lines joined by single spaces.
func oneLine(src []byte, from, to int) string {
	return strings.Join(strings.Fields(string(src[from:to])), " ")
}

// candidate is one possible mutant: src[from:to] replaced by with.
type candidate struct {
	line, rank, from, to int
	with, op             string
}

// The operators in the order a line's one mutant is chosen from.
const (
	rankBoundary = iota
	rankRelational
	rankLogical
	rankNegate
	rankArithmetic
	rankIncrement
	rankZeroReturn
	rankRemove
)

var goSwaps = map[token.Token]struct {
	to   string
	op   string
	rank int
}{
	token.LSS:  {"<=", "boundary", rankBoundary},
	token.LEQ:  {"<", "boundary", rankBoundary},
	token.GTR:  {">=", "boundary", rankBoundary},
	token.GEQ:  {">", "boundary", rankBoundary},
	token.EQL:  {"!=", "relational", rankRelational},
	token.NEQ:  {"==", "relational", rankRelational},
	token.LAND: {"||", "logical", rankLogical},
	token.LOR:  {"&&", "logical", rankLogical},
	token.ADD:  {"-", "arithmetic", rankArithmetic},
	token.SUB:  {"+", "arithmetic", rankArithmetic},
	token.MUL:  {"/", "arithmetic", rankArithmetic},
	token.QUO:  {"*", "arithmetic", rankArithmetic},
	token.REM:  {"*", "arithmetic", rankArithmetic},
}

func (goMutator) Mutants(p string, src []byte, lines []int, arid *Arid) ([]Mutant, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	want := lineSet(lines)
	tf := fset.File(f.Pos())
	off := func(pos token.Pos) int { return tf.Offset(pos) }
	lineOf := func(pos token.Pos) int { return tf.Line(pos) }
	var cands []candidate
	add := func(pos token.Pos, from, to int, with, op string, rank int) {
		if l := lineOf(pos); want[l] {
			cands = append(cands, candidate{line: l, rank: rank, from: from, to: to, with: with, op: op})
		}
	}
	var results []*ast.FieldList // the enclosing functions' results
	loopConds := map[*ast.BinaryExpr]bool{}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeferStmt:
			return false
		case *ast.IfStmt:
			if goAridStmt(oneLine(src, off(n.Pos()), off(n.Body.Lbrace)+1)) {
				// An error check's header is arid; its body is not.
				ast.Inspect(n.Body, visit)
				if n.Else != nil {
					ast.Inspect(n.Else, visit)
				}
				return false
			}
		case *ast.ExprStmt, *ast.ReturnStmt:
			if goAridStmt(oneLine(src, off(n.Pos()), off(n.End()))) {
				return false
			}
		}
		switch n := n.(type) {
		case *ast.GenDecl:
			return n.Tok == token.VAR // constants and types are not behaviour
		case *ast.FuncDecl:
			if n.Body == nil {
				return false
			}
			results = append(results, n.Type.Results)
			ast.Inspect(n.Body, visit)
			results = results[:len(results)-1]
			return false
		case *ast.FuncLit:
			results = append(results, n.Type.Results)
			ast.Inspect(n.Body, visit)
			results = results[:len(results)-1]
			return false
		case *ast.BinaryExpr:
			s, ok := goSwaps[n.Op]
			if !ok || n.Op == token.ADD && (isString(n.X) || isString(n.Y)) || constantOperands(n) {
				return true
			}
			if s.op == "boundary" && !intOperand(n.X) && !intOperand(n.Y) && !loopConds[n] {
				// Between computed values: the inversion (see tokInvertFlip).
				s.to, s.op, s.rank = tokInvertFlip[n.Op.String()], "relational", rankRelational
			}
			o := off(n.OpPos)
			add(n.OpPos, o, o+len(n.Op.String()), s.to, s.op, s.rank)
		case *ast.IfStmt:
			negate(src, n.Cond, off, add)
		case *ast.ForStmt:
			if n.Cond != nil {
				negate(src, n.Cond, off, add)
				// A loop's bound keeps its boundary mutant: off by one.
				ast.Inspect(n.Cond, func(m ast.Node) bool {
					if b, ok := m.(*ast.BinaryExpr); ok {
						loopConds[b] = true
					}
					return true
				})
			}
		case *ast.IncDecStmt:
			o := off(n.TokPos)
			with := "--"
			if n.Tok == token.DEC {
				with = "++"
			}
			add(n.TokPos, o, o+2, with, "increment", rankIncrement)
		case *ast.AssignStmt:
			if (n.Tok == token.ADD_ASSIGN || n.Tok == token.SUB_ASSIGN) && len(n.Rhs) == 1 && !isString(n.Rhs[0]) {
				o := off(n.TokPos)
				with := "-="
				if n.Tok == token.SUB_ASSIGN {
					with = "+="
				}
				add(n.TokPos, o, o+2, with, "increment", rankIncrement)
			}
		case *ast.ReturnStmt:
			if len(results) > 0 {
				zeroReturn(n, results[len(results)-1], off, add)
			}
		case *ast.ExprStmt:
			if call, ok := n.X.(*ast.CallExpr); ok && !isBuiltin(call, "panic") {
				add(n.Pos(), off(n.Pos()), off(n.End()), "", "remove-statement", rankRemove)
			}
		}
		return true
	}
	ast.Inspect(f, visit)
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.line != b.line {
			return a.line < b.line
		}
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		return a.from < b.from
	})
	var out []Mutant
	for _, c := range cands {
		if len(out) > 0 && out[len(out)-1].Line == c.line {
			continue // one mutant per line: the first that parses
		}
		if arid != nil && len(arid.Extra) > 0 && arid.Matches(lineText(src, c.line)) {
			continue
		}
		m := splice(p, src, c.line, c.from, c.to, c.with, c.op)
		if fusesTokens(src, c.from, c.to, c.with) {
			// `x+-1` made `x--1`: parse to be sure the mutant is code.
			if _, err := parser.ParseFile(token.NewFileSet(), p, m.Src, parser.SkipObjectResolution); err != nil {
				continue
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// negate adds the negation of a condition that is not a comparison or a
// logical operation (those are mutated by their operator): `ok` becomes
// `!ok`, and `!ok` becomes `ok`.
func negate(src []byte, cond ast.Expr, off func(token.Pos) int, add func(token.Pos, int, int, string, string, int)) {
	switch c := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		if _, ok := goSwaps[c.Op]; ok && c.Op != token.ADD && c.Op != token.SUB && c.Op != token.MUL && c.Op != token.QUO && c.Op != token.REM {
			return
		}
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			add(c.OpPos, off(c.OpPos), off(c.OpPos)+1, "", "negate-condition", rankNegate)
			return
		}
	}
	from, to := off(cond.Pos()), off(cond.End())
	switch cond.(type) {
	case *ast.Ident, *ast.CallExpr, *ast.SelectorExpr, *ast.ParenExpr, *ast.IndexExpr:
		add(cond.Pos(), from, from, "!", "negate-condition", rankNegate)
	default:
		add(cond.Pos(), from, to, "!("+string(src[from:to])+")", "negate-condition", rankNegate)
	}
}

// zeroReturn adds a return of its result's zero value in place of the
// first result that has a known zero and is not it already. A bool result
// is flipped to the other constant.
func zeroReturn(r *ast.ReturnStmt, fields *ast.FieldList, off func(token.Pos) int, add func(token.Pos, int, int, string, string, int)) {
	if fields == nil || len(r.Results) == 0 {
		return
	}
	var types []ast.Expr
	for _, fl := range fields.List {
		n := max(1, len(fl.Names))
		for range n {
			types = append(types, fl.Type)
		}
	}
	if len(types) != len(r.Results) {
		return // return f() of several results
	}
	for i, e := range r.Results {
		if sel, ok := e.(*ast.SelectorExpr); ok {
			if _, ok := sel.X.(*ast.Ident); ok {
				continue // a plain accessor's field: arid
			}
		}
		zero := zeroOf(types[i])
		if zero == "" || isIdent(types[i], "error") {
			continue
		}
		got := exprText(e)
		if got == zero || zero == "nil" && got == "nil" {
			continue
		}
		if zero == "false" && got == "false" {
			zero = "true"
		}
		add(r.Return, off(e.Pos()), off(e.End()), zero, "zero-return", rankZeroReturn)
		return
	}
}

// zeroOf is the zero value of a type expression, spelled; "" when it is
// not known from the expression alone (a named type of another kind).
func zeroOf(t ast.Expr) string {
	switch t := t.(type) {
	case *ast.Ident:
		switch t.Name {
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr",
			"float32", "float64", "byte", "rune":
			return "0"
		case "string":
			return `""`
		case "bool":
			return "false"
		case "error", "any":
			return "nil"
		}
	case *ast.StarExpr, *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType:
		if a, ok := t.(*ast.ArrayType); ok && a.Len != nil {
			return "" // an array's zero is not nil
		}
		return "nil"
	}
	return ""
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func isBuiltin(call *ast.CallExpr, name string) bool { return isIdent(call.Fun, name) }

// isString reports whether e is a string literal, or a sum with one.
func isString(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return e.Kind == token.STRING
	case *ast.BinaryExpr:
		return e.Op == token.ADD && (isString(e.X) || isString(e.Y))
	}
	return false
}

// constantOperands reports whether both operands are literals: a constant
// expression (1<<10 - 1, 60 * 60) is a definition, not logic.
func constantOperands(b *ast.BinaryExpr) bool {
	_, x := ast.Unparen(b.X).(*ast.BasicLit)
	_, y := ast.Unparen(b.Y).(*ast.BasicLit)
	return x && y
}

// exprText spells the simplest expressions (identifiers and literals),
// enough to tell a result that is its zero value already.
func exprText(e ast.Expr) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e.Name
	case *ast.BasicLit:
		if e.Value == "``" {
			return `""`
		}
		return e.Value
	}
	return ""
}

// fusesTokens reports whether replacing src[from:to] by with could join
// operator characters into another token (`a+-b` made `a--b`): every other
// edit swaps a node for a node and stays code, and only these need parsing
// again.
func fusesTokens(src []byte, from, to int, with string) bool {
	const ops = "+-*/%&|^<>=!:."
	if with == "" {
		return false // a removed call statement leaves an empty statement
	}
	if strings.ContainsRune(ops, rune(with[0])) && from > 0 && strings.IndexByte(ops, src[from-1]) >= 0 {
		return true
	}
	last := with[len(with)-1]
	return strings.IndexByte(ops, last) >= 0 && to < len(src) && strings.IndexByte(ops, src[to]) >= 0
}

// intOperand reports whether e is an integer literal (or one negated).
func intOperand(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return e.Kind == token.INT
	case *ast.UnaryExpr:
		return e.Op == token.SUB && intOperand(e.X)
	}
	return false
}
