package rust

import (
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// funcs returns the production functions and methods of the file
// (File.FuncNames), by module path and impl type as Exports names them
// ("total", "Cart.total", "io::read"), and, among them, the placeholders
// whose whole body is a constant (see constantBody) and their exits and
// branches (File.Funcs, see readFunc). Tests, and functions of
// #[cfg(test)] modules or with a #[cfg(test)] attribute, are left out.
func (p *parser) funcs(comments []comment) (names []string, placeholders []testscan.Marker, funcs []testscan.Func) {
	seen := map[string]bool{}
	for _, f := range p.fns {
		if f.mod.test || f.isTest() {
			continue
		}
		start, attrs := p.itemAttrs(f.at)
		if cfgTest(attrs) || hasTestAttr(attrs) {
			continue
		}
		name := f.name
		if f.mod.self != "" {
			name = f.mod.self + "." + name
		}
		name = join(f.mod.path, name)
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
		funcs = append(funcs, p.readFunc(f, name))
		if f.bodyClose >= len(p.toks) || hasAttr(attrs, "deprecated") || deprecatedDoc(comments, start) {
			continue
		}
		if m, ok := p.constantBody(f.bodyOpen, f.bodyClose); ok {
			m.Text = name
			placeholders = append(placeholders, m)
		}
	}
	return names, placeholders, funcs
}

// itemAttrs walks back from the fn keyword at k over the item's
// qualifiers, visibility and outer attributes: the index of its first
// token and its attributes (a method's, which the parser does not keep).
func (p *parser) itemAttrs(k int) (start int, attrs []attr) {
	for k > 0 {
		prev := p.toks[k-1]
		switch {
		case prev.Kind == tkString || p.is(k-1, "pub") || p.is(k-1, "const") || p.is(k-1, "async") ||
			p.is(k-1, "unsafe") || p.is(k-1, "extern") || p.is(k-1, "default"):
			k--
		case p.is(k-1, ")") && p.match[k-1] > 0 && p.is(p.match[k-1]-1, "pub"):
			k = p.match[k-1] - 1 // pub(crate)
		case p.is(k-1, "]") && p.match[k-1] > 0 && p.is(p.match[k-1]-1, "#"):
			open := p.match[k-1]
			attrs = append(attrs, parseAttr(p.toks[open+1:k-1], p.toks[open-1].Line))
			k = open - 1
		default:
			return k, attrs
		}
	}
	return k, attrs
}

// cfgTest reports a #[cfg(test)] attribute: the item exists in test builds
// only.
func cfgTest(attrs []attr) bool {
	for _, a := range attrs {
		if a.path == "cfg" && joinTokens(a.args) == "test" {
			return true
		}
	}
	return false
}

func hasTestAttr(attrs []attr) bool {
	for _, a := range attrs {
		if isTestAttr(a) {
			return true
		}
	}
	return false
}

// deprecatedDoc reports whether the doc comments right before the token at
// start say the item is deprecated.
func deprecatedDoc(comments []comment, start int) bool {
	return testscan.DeprecatedBefore(len(comments), func(c int) int { return comments[c].off },
		func(c int) string { return comments[c].text }, start)
}

// constantBody reads a function body, between the braces at open and
// close, that is one constant: a tail expression, or `return` and the
// constant with an optional semicolon (see isConstant). The marker has
// Line and Value.
func (p *parser) constantBody(open, close int) (testscan.Marker, bool) {
	body := p.toks[open+1 : close]
	expr := body
	if len(body) > 0 && body[0].Kind == tkIdent && body[0].Text == "return" {
		expr = body[1:]
		if n := len(expr); n > 0 && expr[n-1].Kind == tkPunct && expr[n-1].Text == ";" {
			expr, body = expr[:n-1], body[:len(body)-1]
		}
	}
	if !isConstant(expr) {
		return testscan.Marker{}, false
	}
	return testscan.Marker{Line: body[0].Line, Kind: "constant-body", Value: joinTokens(body)}, true
}

// constantForms are the constants a body may be besides literals, as
// tokens joined: the empty values a stub returns.
var constantForms = map[string]bool{
	"None": true, "Vec::new()": true, "vec![]": true, "String::new()": true, "Default::default()": true,
}

// isConstant reports whether toks are a literal (see isLiteral), None, an
// empty Vec or String, or Default::default().
func isConstant(toks []token) bool {
	if isLiteral(toks) {
		return true
	}
	if len(toks) == 0 || len(toks) > 6 {
		return false
	}
	return constantForms[joinTokens(toks)]
}
