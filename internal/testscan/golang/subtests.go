package golang

import (
	"go/ast"
	"go/token"

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
	var base tokenSeq
	if fl, ok := call.Args[1].(*ast.FuncLit); ok {
		e.addParams(fl.Type)
		e.walk(fl.Body, child)
		e.skips(fl.Body, child)
		base = e.u.bodySeq(fl.Body)
	} else {
		base = e.u.span(call.Args[1])
	}
	if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
		if v, ok := unquote(lit.Value); ok {
			child.name = rewriteName(v)
			setFingerprint(child, base)
			child.literals = base.literals(nil)
			return []*node{child}, true
		}
	}
	if t := e.table(call.Args[0], stack); t != nil {
		return e.expand(child, t, base), true
	}
	child.name, child.dynamic = "*", true
	setFingerprint(child, base)
	child.literals = base.literals(nil)
	return []*node{child}, true
}

// setFingerprint hashes the token sequences into n's fingerprint and token count.
func setFingerprint(n *node, seqs ...tokenSeq) {
	var h hasher
	for _, s := range seqs {
		h.add(s)
	}
	n.fingerprint, n.tokens = h.sum(), h.tokens
}

// expand makes one subtest per table row from the subtest read once.
func (e *env) expand(tmpl *node, t *table, base tokenSeq) []*node {
	loop := e.u.bodySeq(t.loop.Body)
	out := make([]*node, 0, len(t.rows))
	for _, r := range t.rows {
		c := tmpl.clone()
		c.name = rewriteName(r.name)
		c.line, c.endLine = t.u.line(r.node.Pos()), t.u.endLine(r.node)
		rowSeq := t.u.without(t.u.span(r.node), r.nameNode)
		setFingerprint(c, rowSeq, loop)
		c.literals = base.literals(rowSeq.literals(nil))
		subst := map[string]string{}
		for f, x := range r.fields {
			subst[t.varName+"."+f] = t.u.text(x)
		}
		c.substitute(subst)
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
func (n *node) substitute(m map[string]string) {
	for i := range n.asserts {
		a := &n.asserts[i]
		if v, ok := m[a.Subject]; ok {
			a.Subject = v
		}
		if v, ok := m[a.Expected]; ok {
			a.Expected = v
		}
		if v, ok := m[a.Tolerance]; ok {
			a.Tolerance = v
		}
	}
	for _, c := range n.children {
		c.substitute(m)
	}
}

// evalRow evaluates a skip condition over one row's fields when it only reads
// bool or string fields of the loop variable (tc.skip, tc.reason != "").
func evalRow(cond ast.Expr, v string, fields map[string]ast.Expr) (known, value bool) {
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
func rowField(s *ast.SelectorExpr, v string, fields map[string]ast.Expr) (ast.Expr, bool) {
	id, ok := s.X.(*ast.Ident)
	if !ok || id.Name != v {
		return nil, false
	}
	return fields[s.Sel.Name], true
}
