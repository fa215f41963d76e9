package golang

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// subtest reads t.Run(name, func) (s.Run(name, func) in a suite) into one
// subtest, one per row of a literal table, or one dynamic subtest.
func (e *env) subtest(call *ast.CallExpr, stack []ast.Node) ([]*node, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Run" || len(call.Args) != 2 {
		return nil, false
	}
	id, isIdent := sel.X.(*ast.Ident)
	inSuite := isIdent && e.suiteRecv != "" && id.Name == e.suiteRecv
	if !inSuite && !e.isTestingExpr(sel.X) {
		return nil, false
	}
	child := &node{
		line:    e.u.line(call.Pos()),
		endLine: e.u.endLine(call),
		runLine: e.u.line(call.Pos()),
	}
	// The call is not walked further: its parts go to the marker walk here.
	e.marks.walk(call.Fun)
	e.marks.walk(call.Args[0])
	var base tokenSeq
	if fl, ok := call.Args[1].(*ast.FuncLit); ok {
		e.marks.visit(fl)
		e.marks.walk(fl.Type)
		e.addParams(fl.Type)
		e.walk(fl.Body, child)
		e.marks.leave(fl)
		e.skips(fl.Body, child)
		base = e.u.bodySeq(fl.Body)
	} else {
		e.marks.walk(call.Args[1])
		base = e.u.span(call.Args[1])
	}
	if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
		if v, ok := unquote(lit.Value); ok {
			child.name = rewriteName(v)
			e.ctx.fingerprint(child, base)
			child.literals = base.literals(nil)
			return []*node{child}, true
		}
	}
	if t := e.table(call.Args[0], stack); t != nil {
		return e.expand(child, t, base), true
	}
	child.name, child.dynamic = "*", true
	e.ctx.fingerprint(child, base)
	child.literals = base.literals(nil)
	return []*node{child}, true
}

// fingerprint hashes the token sequences into n's fingerprint and token count.
func (ctx *fileCtx) fingerprint(n *node, seqs ...tokenSeq) {
	h := ctx.hash.reset()
	for _, s := range seqs {
		h.add(s)
	}
	n.fingerprint, n.tokens = h.sum(), h.tokens
}

// expand makes one subtest per table row from the subtest read once.
func (e *env) expand(tmpl *node, t *table, base tokenSeq) []*node {
	loop := e.u.bodySeq(t.loop.Body)
	baseLits := base.literals(nil)
	prefix := t.varName + "."
	out := make([]*node, 0, len(t.rows))
	for _, r := range t.rows {
		c := tmpl.clone()
		c.name = rewriteName(r.name)
		c.line, c.endLine = t.u.line(r.node.Pos()), t.u.endLine(r.node)
		// The name is left out of the row: a renamed subtest keeps its body.
		before, after := t.u.split(t.u.span(r.node), r.nameNode)
		e.ctx.fingerprint(c, before, after, loop)
		c.literals = after.literals(before.literals(nil))
		c.literals = append(c.literals, baseLits[:min(len(baseLits), max(0, maxLiterals-len(c.literals)))]...)
		if bl, ok := r.nameNode.(*ast.BasicLit); ok && bl.Kind == token.STRING {
			c.nameLit = normString(bl.Value)
		}
		for _, f := range r.fields {
			fl, ok := f.x.(*ast.FuncLit)
			if !ok || !slices.ContainsFunc(tmpl.calls, func(c testscan.Call) bool { return c.Name == "."+f.name }) {
				continue
			}
			c.rowFuncs = append(c.rowFuncs, [2]int{t.u.line(fl.Pos()), t.u.endLine(fl)})
		}
		c.substitute(func(operand string) (string, bool) {
			f, ok := strings.CutPrefix(operand, prefix)
			if !ok {
				return "", false
			}
			x, ok := r.fields.get(f)
			if !ok {
				return "", false
			}
			return t.u.text(x), true
		})
		if c.skipCond != nil {
			if known, v := evalRow(c.skipCond, t.varName, r.fields); known {
				if !v {
					c.skip = nil
				} else {
					c.skip.Kind = testscan.SkipCall
				}
			}
		}
		out = append(out, c)
	}
	return out
}

func (n *node) clone() *node {
	c := *n
	c.asserts = append(c.asserts[:0:0], n.asserts...)
	if n.skip != nil {
		s := *n.skip
		c.skip = &s
	}
	c.children = make([]*node, len(n.children))
	for i, ch := range n.children {
		c.children[i] = ch.clone()
	}
	return &c
}

// substitute replaces assertion operands that read a table field (tc.want) with
// the row's value, so a rewritten expected value in a row shows in Expected.
// field gives the row's value of an operand that reads a field.
func (n *node) substitute(field func(operand string) (string, bool)) {
	for i := range n.asserts {
		a := &n.asserts[i]
		if v, ok := field(a.Subject); ok {
			a.Subject = v
		}
		if v, ok := field(a.Expected); ok {
			a.Expected = v
		}
		if v, ok := field(a.Tolerance); ok {
			a.Tolerance = v
		}
	}
	for _, c := range n.children {
		c.substitute(field)
	}
}

// evalRow evaluates a skip condition over one row's fields when it only reads
// bool or string fields of the loop variable (tc.skip, tc.reason != "").
func evalRow(cond ast.Expr, v string, fields fieldValues) (known, value bool) {
	switch x := cond.(type) {
	case *ast.ParenExpr:
		return evalRow(x.X, v, fields)
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			k, val := evalRow(x.X, v, fields)
			return k, !val
		}
	case *ast.SelectorExpr:
		f, ok := rowField(x, v, fields)
		if !ok {
			return false, false
		}
		if f == nil {
			return true, false
		}
		if id, ok := f.(*ast.Ident); ok && (id.Name == "true" || id.Name == "false") {
			return true, id.Name == "true"
		}
	case *ast.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			k1, v1 := evalRow(x.X, v, fields)
			k2, v2 := evalRow(x.Y, v, fields)
			stop := x.Op == token.LOR // true decides ||, false decides &&
			switch {
			case (k1 && v1 == stop) || (k2 && v2 == stop):
				return true, stop
			case k1 && k2:
				return true, !stop
			}
			return false, false
		}
		if x.Op != token.EQL && x.Op != token.NEQ {
			return false, false
		}
		sel, lit := x.X, x.Y
		if _, ok := sel.(*ast.BasicLit); ok {
			sel, lit = lit, sel
		}
		s, ok1 := sel.(*ast.SelectorExpr)
		l, ok2 := lit.(*ast.BasicLit)
		if !ok1 || !ok2 || l.Kind != token.STRING {
			return false, false
		}
		f, ok := rowField(s, v, fields)
		if !ok {
			return false, false
		}
		got := ""
		if f != nil {
			fl, ok := f.(*ast.BasicLit)
			if !ok || fl.Kind != token.STRING {
				return false, false
			}
			got, _ = unquote(fl.Value)
		}
		want, _ := unquote(l.Value)
		return true, (got == want) == (x.Op == token.EQL)
	}
	return false, false
}

// rowField is the row's value of v.field (nil when the row leaves it zero).
func rowField(s *ast.SelectorExpr, v string, fields fieldValues) (ast.Expr, bool) {
	id, ok := s.X.(*ast.Ident)
	if !ok || id.Name != v {
		return nil, false
	}
	x, _ := fields.get(s.Sel.Name)
	return x, true
}
