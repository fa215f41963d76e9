package golang

import (
	"go/ast"
	"go/token"
	"strconv"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// noteValues records what an assignment binds its variables to (see
// testscan.Assertion.Origin): the expression, resolved through a variable
// it names, or the call and the result's index for one of a call's
// results. A variable bound by an operator assignment (+=) is forgotten.
func (e *env) noteValues(as *ast.AssignStmt) {
	if as.Tok != token.DEFINE && as.Tok != token.ASSIGN {
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				delete(e.values, id.Name)
			}
		}
		return
	}
	if e.values == nil {
		e.values = map[string]string{}
	}
	// The values are read before any is bound: a, b = b, a.
	vals := make([]string, len(as.Lhs))
	for i := range as.Lhs {
		switch {
		case len(as.Rhs) == len(as.Lhs):
			vals[i] = e.valueOf(as.Rhs[i])
		case len(as.Rhs) == 1:
			vals[i] = e.u.text(as.Rhs[0]) + "#" + strconv.Itoa(i)
		}
	}
	for i, l := range as.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		if vals[i] == "" {
			delete(e.values, id.Name)
			continue
		}
		e.values[id.Name] = vals[i]
	}
}

// forget drops what the variables a range statement binds held.
func (e *env) forget(rs *ast.RangeStmt) {
	for _, x := range []ast.Expr{rs.Key, rs.Value} {
		if id, ok := x.(*ast.Ident); ok {
			delete(e.values, id.Name)
		}
	}
}

// valueOf is the normalized text of x, or of what the variable x names
// was last bound to.
func (e *env) valueOf(x ast.Expr) string {
	if id, ok := x.(*ast.Ident); ok {
		if v, ok := e.values[id.Name]; ok {
			return v
		}
		if i, ok := e.params[id.Name]; ok {
			return "$" + strconv.Itoa(i)
		}
	}
	return e.u.text(x)
}

// origin sets the Origin of a check whose subject is a variable. A check
// whose expected value is a variable bound to a call of the function its
// subject came from (`want := Parse(s)` compared with `got := Parse(s)`)
// gets that call as its expected value: the expectation is circular.
func (e *env) origin(a *testscan.Assertion) {
	if v, ok := e.values[a.Subject]; ok {
		a.Origin = v
	} else if i, ok := e.params[a.Subject]; ok {
		a.Origin = "$" + strconv.Itoa(i)
	}
	if v, ok := e.values[a.Expected]; ok && a.Expected != a.Subject {
		under := a.Origin
		if under == "" || under[0] == '$' {
			under = a.Subject
		}
		if c := testscan.Callee(v); c != "" && c == testscan.Callee(under) {
			a.Expected = v
		}
	}
}

// argValues are the values a call passes (see testscan.Call.Values).
func (e *env) argValues(call *ast.CallExpr) []string {
	if len(call.Args) == 0 {
		return nil
	}
	out := make([]string, len(call.Args))
	for i, x := range call.Args {
		out[i] = e.valueOf(x)
	}
	return out
}

// setParams numbers the parameters of a helper, for Origin's "$N".
func (e *env) setParams(ft *ast.FuncType) {
	if ft == nil || ft.Params == nil {
		return
	}
	e.params = map[string]int{}
	i := 0
	for _, f := range ft.Params.List {
		if len(f.Names) == 0 {
			i++
			continue
		}
		for _, n := range f.Names {
			e.params[n.Name] = i
			i++
		}
	}
}
