package golang

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// table is a literal test table a subtest loop ranges over.
type table struct {
	loop    *ast.RangeStmt
	u       *unit  // the unit holding the rows (a package-level table may be elsewhere in a fragment)
	varName string // the loop's value variable (tc), for field substitution
	rows    []row
}

// row is one entry of a table.
type row struct {
	name string
	node ast.Node // the whole entry (for its lines and tokens)
	// nameNode is the part of node that holds the name: left out of the
	// fingerprint, since a renamed subtest keeps its body.
	nameNode ast.Node
	fields   fieldValues
}

// fieldValues are the fields of a struct literal in source order.
type fieldValues []fieldValue

type fieldValue struct {
	name string
	x    ast.Expr
}

// get is the value of the field named name (the last one, should the literal
// repeat it).
func (fs fieldValues) get(name string) (ast.Expr, bool) {
	for i := len(fs) - 1; i >= 0; i-- {
		if fs[i].name == name {
			return fs[i].x, true
		}
	}
	return nil, false
}

// table resolves the name argument of t.Run inside a range loop over a literal
// table: tc.name over a slice of structs, name (the key) over a map, s over a
// slice of strings. It returns nil when any part is not a literal.
func (e *env) table(nameArg ast.Expr, stack []ast.Node) *table {
	var varName, field string
	switch x := nameArg.(type) {
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		if !ok {
			return nil
		}
		varName, field = id.Name, x.Sel.Name
	case *ast.Ident:
		varName = x.Name
	default:
		return nil
	}
	for i := len(stack) - 1; i >= 0; i-- {
		rs, ok := stack[i].(*ast.RangeStmt)
		if !ok {
			continue
		}
		key, val := identName(rs.Key), identName(rs.Value)
		if varName != key && varName != val {
			continue
		}
		lit, u := e.resolveLit(rs.X, rs.Pos())
		if lit == nil {
			return nil
		}
		t := &table{loop: rs, u: u, varName: val}
		switch {
		case field != "" && varName == val:
			t.rows = e.structRows(lit, field)
		case field == "" && varName == key:
			t.rows = e.keyRows(lit)
		case field == "" && varName == val:
			t.rows = stringRows(lit)
		}
		if t.rows == nil {
			return nil
		}
		return t
	}
	return nil
}

func identName(x ast.Expr) string {
	if id, ok := x.(*ast.Ident); ok && id.Name != "_" {
		return id.Name
	}
	return ""
}

// resolveLit finds the composite literal x stands for: x itself, the last local
// definition before pos, or a package-level variable of the file.
func (e *env) resolveLit(x ast.Expr, pos token.Pos) (*ast.CompositeLit, *unit) {
	if cl := compositeOf(x); cl != nil {
		return cl, e.u
	}
	id, ok := x.(*ast.Ident)
	if !ok {
		return nil, nil
	}
	e.collectLocals()
	if defs := e.locals[id.Name]; len(defs) > 0 {
		var best *ast.CompositeLit
		for _, d := range defs {
			if d.pos < pos {
				best = d.lit
			}
		}
		return best, e.u
	}
	if d, ok := e.ctx.tables[id.Name]; ok {
		return d.lit, d.u
	}
	return nil, nil
}

// structRows reads the rows of a slice (or array) of structs, or of a map of
// structs, naming each row by the string literal in field.
func (e *env) structRows(lit *ast.CompositeLit, field string) []row {
	entries, ok := e.structEntries(lit)
	if !ok {
		return nil
	}
	rows := make([]row, 0, len(entries))
	for _, en := range entries {
		entry, cl, fields := en.node, en.lit, en.fields
		nameX, ok := fields.get(field)
		if !ok {
			return nil
		}
		bl, ok := nameX.(*ast.BasicLit)
		if !ok || bl.Kind != token.STRING {
			return nil
		}
		name, ok := unquote(bl.Value)
		if !ok {
			return nil
		}
		var nameNode ast.Node = nameX
		for _, f := range cl.Elts {
			if kv, ok := f.(*ast.KeyValueExpr); ok && kv.Value == nameX {
				nameNode = kv
			}
		}
		rows = append(rows, row{name: name, node: entry, nameNode: nameNode, fields: fields})
	}
	return rows
}

// structEntry is one struct literal of a table: the entry as written (with
// its map key), the struct literal and its fields.
type structEntry struct {
	node   ast.Node
	lit    *ast.CompositeLit
	fields fieldValues
}

// structEntries reads the struct literals of a slice (or array) or map
// literal; ok is false when an entry is not a struct literal.
func (e *env) structEntries(lit *ast.CompositeLit) ([]structEntry, bool) {
	var elemType ast.Expr
	switch t := lit.Type.(type) {
	case *ast.ArrayType:
		elemType = t.Elt
	case *ast.MapType:
		elemType = t.Value
	default:
		return nil, false
	}
	out := make([]structEntry, 0, len(lit.Elts))
	for _, el := range lit.Elts {
		entry := el
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			el = kv.Value
		}
		cl := compositeOf(el)
		if cl == nil {
			return nil, false
		}
		typ := elemType
		if cl.Type != nil {
			typ = cl.Type
		}
		out = append(out, structEntry{entry, cl, e.fields(cl, typ)})
	}
	return out, true
}

// keyRows reads a map literal keyed by string literals.
func (e *env) keyRows(lit *ast.CompositeLit) []row {
	mt, ok := lit.Type.(*ast.MapType)
	if !ok {
		return nil
	}
	rows := make([]row, 0, len(lit.Elts))
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return nil
		}
		bl, ok := kv.Key.(*ast.BasicLit)
		if !ok || bl.Kind != token.STRING {
			return nil
		}
		name, ok := unquote(bl.Value)
		if !ok {
			return nil
		}
		var fields fieldValues
		if cl := compositeOf(kv.Value); cl != nil {
			typ := mt.Value
			if cl.Type != nil {
				typ = cl.Type
			}
			fields = e.fields(cl, typ)
		}
		rows = append(rows, row{name: name, node: kv, nameNode: kv.Key, fields: fields})
	}
	return rows
}

// stringRows reads a slice of string literals.
func stringRows(lit *ast.CompositeLit) []row {
	if _, ok := lit.Type.(*ast.ArrayType); !ok {
		return nil
	}
	rows := make([]row, 0, len(lit.Elts))
	for _, el := range lit.Elts {
		bl, ok := el.(*ast.BasicLit)
		if !ok || bl.Kind != token.STRING {
			return nil
		}
		name, ok := unquote(bl.Value)
		if !ok {
			return nil
		}
		rows = append(rows, row{name: name, node: bl, nameNode: bl})
	}
	return rows
}

// fields lists the field names of a struct literal with their values;
// positional literals are named from the struct type when it is known.
func (e *env) fields(cl *ast.CompositeLit, typ ast.Expr) fieldValues {
	vals := make(fieldValues, 0, len(cl.Elts))
	var names []string
	for i, el := range cl.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				vals = append(vals, fieldValue{id.Name, kv.Value})
			}
			continue
		}
		if names == nil {
			names = e.fieldNames(typ)
		}
		if i < len(names) {
			vals = append(vals, fieldValue{names[i], el})
		}
	}
	return vals
}

func (e *env) fieldNames(typ ast.Expr) []string {
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	var st *ast.StructType
	switch t := typ.(type) {
	case *ast.StructType:
		st = t
	case *ast.Ident:
		e.collectLocals()
		st = e.structs[t.Name]
		if st == nil {
			st = e.ctx.structs[t.Name]
		}
	}
	if st == nil || st.Fields == nil {
		return []string{}
	}
	names := []string{}
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			names = append(names, embeddedName(f.Type))
		}
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
	}
	return names
}

func embeddedName(x ast.Expr) string {
	switch t := x.(type) {
	case *ast.StarExpr:
		return embeddedName(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Name
	case *ast.Ident:
		return t.Name
	}
	return ""
}

// maxLoopRows bounds the checks a loop over a literal table expands to.
const maxLoopRows = 64

// loopChecks expands a check made inside a range loop over a literal table
// of structs (for _, v := range []struct{...}{{"a", a}, ...} { if v.got !=
// want {...} }) into the check of each row, with the row's values in place
// of the loop variable's fields: checks folded into such a loop are the
// checks they were. A check that reads no field of the loop's variable,
// a table that is not a literal, or one of more than maxLoopRows rows
// stays one check.
func (e *env) loopChecks(a testscan.Assertion, stack []ast.Node) []testscan.Assertion {
	for i := len(stack) - 1; i >= 0; i-- {
		rs, ok := stack[i].(*ast.RangeStmt)
		if !ok {
			continue
		}
		val := identName(rs.Value)
		if val == "" {
			continue
		}
		prefix := val + "."
		reads := func(s string) bool { return strings.HasPrefix(s, prefix) }
		if !reads(a.Subject) && !reads(a.Expected) {
			if i+1 < len(stack) && stack[i+1] == rs.Body {
				if rows := e.derivedChecks(a, rs, val); rows != nil {
					return rows
				}
			}
			continue
		}
		lit, u := e.resolveLit(rs.X, rs.Pos())
		if lit == nil || len(lit.Elts) == 0 || len(lit.Elts) > maxLoopRows {
			return nil
		}
		entries, ok := e.structEntries(lit)
		if !ok {
			return nil
		}
		out := make([]testscan.Assertion, 0, len(entries))
		for _, en := range entries {
			fields := en.fields
			constant := false // the row gives the subject a literal
			sub := func(operand string, subject bool) (string, bool) {
				f, ok := strings.CutPrefix(operand, prefix)
				if !ok {
					return operand, true
				}
				x, ok := fields.get(f)
				if !ok {
					return "", false
				}
				if _, lit := x.(*ast.BasicLit); lit && subject {
					constant = true
				}
				return u.text(x), true
			}
			c := a
			var okS, okE bool
			c.Subject, okS = sub(a.Subject, true)
			c.Expected, okE = sub(a.Expected, false)
			if !okS || !okE {
				return nil
			}
			if constant || c.Subject != "" && c.Subject == c.Expected {
				// A row that checks a constant, or a value against
				// itself, checks no code.
				c.Strength = testscan.Trivial
			}
			out = append(out, c)
		}
		return out
	}
	return nil
}

// derivedChecks expands a check inside the body of a range loop over a
// literal table of values, not structs (for _, shell := range
// []string{"bash", "zsh"}), that reads no field of the row but a value
// the body computed from it (compCmd, _,
// err = root.Find([]string{name, shell}); if err != nil {...}) into one
// check per distinct row: each row runs it on its own value. A check of a
// value the rows do not reach (set before the loop) stays one check, and
// so does one in a loop over a table that is not a literal or has more
// than maxLoopRows rows. The copies keep the check's text: the row's
// value is not in it.
func (e *env) derivedChecks(a testscan.Assertion, rs *ast.RangeStmt, val string) []testscan.Assertion {
	if rs.Body == nil {
		return nil
	}
	derived := rowDerived(rs.Body, val)
	if !readsAny(a.Subject, derived) && !readsAny(a.Expected, derived) {
		return nil
	}
	lit, u := e.resolveLit(rs.X, rs.Pos())
	if lit == nil || len(lit.Elts) < 2 || len(lit.Elts) > maxLoopRows {
		return nil
	}
	seen := make(map[string]bool, len(lit.Elts))
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			el = kv.Value
		}
		if compositeOf(el) != nil {
			// A table of structs (&tc{...} too): loopChecks reads its
			// rows' fields.
			return nil
		}
		seen[u.text(el)] = true
	}
	out := make([]testscan.Assertion, len(seen))
	for i := range out {
		out[i] = a
	}
	return out
}

// rowDerived returns the names that the loop body (body) assigns from
// the loop's row variable val, directly or through other such names, with
// val itself.
func rowDerived(body *ast.BlockStmt, val string) map[string]bool {
	derived := map[string]bool{val: true}
	mentions := func(xs []ast.Expr) bool {
		found := false
		for _, x := range xs {
			ast.Inspect(x, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && derived[id.Name] {
					found = true
				}
				return !found
			})
		}
		return found
	}
	for grew := true; grew; {
		grew = false
		ast.Inspect(body, func(n ast.Node) bool {
			var lhs, rhs []ast.Expr
			switch s := n.(type) {
			case *ast.AssignStmt:
				lhs, rhs = s.Lhs, s.Rhs
			case *ast.ValueSpec:
				for _, id := range s.Names {
					lhs = append(lhs, id)
				}
				rhs = s.Values
			default:
				return true
			}
			if !mentions(rhs) {
				return true
			}
			for _, l := range lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" && !derived[id.Name] {
					derived[id.Name] = true
					grew = true
				}
			}
			return true
		})
	}
	return derived
}

// readsAny reports whether the operand text s reads a variable of names:
// an identifier outside string literals that is not a selector's field
// (x.shell reads x, not shell).
func readsAny(s string, names map[string]bool) bool {
	isIdent := func(c byte) bool {
		return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '`' || c == '\'':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' && c != '`' {
					j++
				}
				j++
			}
			i = j + 1
		case isIdent(c) && !('0' <= c && c <= '9'):
			j := i
			for j < len(s) && isIdent(s[j]) {
				j++
			}
			if names[s[i:j]] && (i == 0 || s[i-1] != '.') {
				return true
			}
			i = j
		case '0' <= c && c <= '9':
			for i < len(s) && isIdent(s[i]) {
				i++
			}
		default:
			i++
		}
	}
	return false
}
