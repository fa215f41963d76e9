package rust

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// attr is one outer attribute #[path(args)] or #[path = value].
type attr struct {
	path string  // "test", "tokio::test", "cfg_attr"
	args []token // inside the parentheses, or after '='
	line int
}

// module is an inline module (or the file itself) while its items are parsed.
type module struct {
	path     string // "tests::inner", "" for the file
	exported bool   // every enclosing module is pub
	skip     *testscan.Skip
	test     bool   // a #[cfg(test)] module or one inside it
	self     string // the type of an impl block's methods
}

// fnDecl is a function or method with its attributes (a method's are not read).
type fnDecl struct {
	mod       *module
	name      string
	at        int // index of the fn keyword
	attrs     []attr
	line      int // first line of the item, attributes included
	paramOpen int // index of the '(' of the parameters, -1 when not found
	bodyOpen  int
	bodyClose int // the matching '}', or len(toks) when unterminated
	endLine   int
	quick     bool // declared inside quickcheck! { ... }
}

// parser walks the items of one file.
type parser struct {
	toks     []token
	match    []int
	partial  bool
	fns      []*fnDecl
	exports  []testscan.Symbol
	exported map[string]bool
	callBuf  []testscan.Call // scratch for scanBody
	local    map[string]bool // the names of fns, once dropLocal needs them
	// async are the names of the file's async fns (asyncFnNames), read
	// on first use; asyncRead says they were.
	async     map[string]bool
	asyncRead bool
}

// asyncFns returns the file's async fn names, read once.
func (p *parser) asyncFns() map[string]bool {
	if !p.asyncRead {
		p.async, p.asyncRead = asyncFnNames(p.toks), true
	}
	return p.async
}

func (p *parser) at(i int) token {
	if i < 0 || i >= len(p.toks) {
		return token{}
	}
	return p.toks[i]
}

// is reports whether the token at i is the punctuation or keyword text.
func (p *parser) is(i int, text string) bool {
	t := p.at(i)
	return t.Text == text && (t.Kind == tkPunct || t.Kind == tkIdent)
}

// closeOf returns the partner of the opener at i, or end with partial set when it
// has none inside [i, end).
func (p *parser) closeOf(i, end int) int {
	if i >= 0 && i < len(p.match) {
		if c := p.match[i]; c > i && c < end {
			return c
		}
	}
	p.partial = true
	return end
}

func (p *parser) isOpener(i int) bool {
	return p.is(i, "(") || p.is(i, "[") || p.is(i, "{")
}

// items parses the items in toks[i:end] of module m.
func (p *parser) items(i, end int, m *module, quick bool) {
	var attrs []attr
	pub := false
	start := -1
	reset := func() { attrs, pub, start = nil, false, -1 }
	for i < end {
		t := p.toks[i]
		if start < 0 {
			start = i
		}
		switch {
		case p.is(i, "#") && p.is(i+1, "!") && p.is(i+2, "["):
			i = p.closeOf(i+2, end) + 1 // an inner attribute
		case p.is(i, "#") && p.is(i+1, "["):
			c := p.closeOf(i+1, end)
			attrs = append(attrs, parseAttr(p.toks[i+2:c], t.Line))
			i = c + 1
		case p.is(i, "pub"):
			pub = true
			i++
			if p.is(i, "(") { // pub(crate), pub(super), pub(in path): not public API
				pub = false
				i = p.closeOf(i, end) + 1
			}
		case p.is(i, ";"):
			reset()
			i++
		case p.is(i, "}") || p.is(i, ")") || p.is(i, "]"):
			p.partial = true
			reset()
			i++
		case p.isOpener(i):
			i = p.closeOf(i, end) + 1
			reset()
		case t.Kind != tkIdent:
			i++
			reset()
		default:
			i = p.item(i, end, m, attrs, pub, p.toks[start].Line, quick)
			reset()
		}
	}
}

// item parses the item whose first keyword (after attributes and visibility) is at i.
func (p *parser) item(i, end int, m *module, attrs []attr, pub bool, line int, quick bool) int {
	if i >= end {
		return end
	}
	t := p.toks[i]
	exported := pub && m.exported
	switch t.Text {
	case "const", "async", "unsafe", "default", "extern":
		if t.Text == "const" && p.at(i+1).Kind == tkIdent && p.is(i+2, ":") {
			p.export(exported, m, p.toks[i+1].Text, "const", t.Line)
			return p.skipTo(i, end)
		}
		if t.Text == "extern" && p.is(i+1, "crate") {
			return p.skipTo(i, end)
		}
		j := i + 1
		if p.at(j).Kind == tkString { // extern "C"
			j++
		}
		if p.is(j, "{") { // extern "C" { ... }
			return p.closeOf(j, end) + 1
		}
		return p.item(j, end, m, attrs, pub, line, quick)
	case "fn":
		return p.fn(i, end, m, attrs, exported, line, quick)
	case "mod":
		name := p.at(i + 1)
		if name.Kind != tkIdent {
			return i + 1
		}
		p.export(exported, m, name.Text, "module", t.Line)
		if !p.is(i+2, "{") {
			return p.skipTo(i, end)
		}
		child := &module{path: join(m.path, name.Text), exported: exported, skip: m.skip, test: m.test || cfgTest(attrs)}
		if child.skip == nil {
			child.skip = cfgSkip(attrs)
		}
		c := p.closeOf(i+2, end)
		p.items(i+3, c, child, false)
		return c + 1
	case "struct", "enum", "union", "trait", "type":
		name := p.at(i + 1)
		if name.Kind != tkIdent || (t.Text == "union" && !(p.is(i+2, "{") || p.is(i+2, "<"))) {
			return p.skipTo(i, end)
		}
		p.export(exported, m, name.Text, "type", t.Line)
		return p.skipItem(i+2, end)
	case "static":
		j := i + 1
		if p.is(j, "mut") {
			j++
		}
		p.export(exported && p.at(j).Kind == tkIdent, m, p.at(j).Text, "var", t.Line)
		return p.skipTo(i, end)
	case "impl":
		return p.impl(i, end, m)
	case "use":
		return p.skipTo(i, end)
	case "macro_rules":
		name := p.at(i + 2)
		if p.is(i+1, "!") && name.Kind == tkIdent {
			p.export(hasAttr(attrs, "macro_export"), m, name.Text, "macro", t.Line)
			j := i + 3
			if p.isOpener(j) {
				return p.closeOf(j, end) + 1
			}
		}
		return i + 1
	}
	if p.is(i+1, "!") && p.isOpener(i+2) {
		// An item-position macro. proptest! and quickcheck! hold test functions.
		c := p.closeOf(i+2, end)
		if t.Text == "proptest" || t.Text == "quickcheck" {
			p.items(i+3, c, m, t.Text == "quickcheck")
		}
		return c + 1
	}
	return p.skipTo(i, end) // a statement of a fragment, or something unknown
}

// skipTo skips to just past the next ';' at this nesting level, or past a block
// that ends the construct.
func (p *parser) skipTo(i, end int) int {
	for i < end {
		switch {
		case p.is(i, ";"):
			return i + 1
		case p.is(i, "{"):
			c := p.closeOf(i, end) + 1
			if p.is(c, ";") || p.is(c, ".") || p.is(c, ")") {
				i = c
				continue
			}
			return c
		case p.is(i, "(") || p.is(i, "["):
			i = p.closeOf(i, end) + 1
		case p.is(i, "}") || p.is(i, ")") || p.is(i, "]"):
			return i
		default:
			i++
		}
	}
	return end
}

// skipItem skips the rest of a struct, enum, union, trait or type item.
func (p *parser) skipItem(i, end int) int {
	for i < end {
		switch {
		case p.is(i, ";"):
			return i + 1
		case p.is(i, "{"):
			return p.closeOf(i, end) + 1
		case p.is(i, "("):
			i = p.closeOf(i, end) + 1 // a tuple struct: its ';' follows
		case p.is(i, "["):
			i = p.closeOf(i, end) + 1
		case p.is(i, "}") || p.is(i, ")") || p.is(i, "]"):
			return i
		default:
			i++
		}
	}
	return end
}

// fn parses a function whose `fn` keyword is at i.
func (p *parser) fn(i, end int, m *module, attrs []attr, exported bool, line int, quick bool) int {
	name := p.at(i + 1)
	if name.Kind != tkIdent {
		return i + 1
	}
	p.export(exported, m, name.Text, "func", p.toks[i].Line)
	k := i + 2
	params, angle := -1, 0
	for k < end {
		switch {
		case p.is(k, "<"):
			angle++
		case p.is(k, ">"):
			angle--
		case p.is(k, "(") && angle == 0 && params < 0:
			params = k
		}
		switch {
		case p.is(k, "{"):
			c := p.closeOf(k, end)
			f := &fnDecl{mod: m, name: name.Text, at: i, attrs: attrs, line: line, paramOpen: params, bodyOpen: k, bodyClose: c, quick: quick}
			f.endLine = p.at(c).Line
			if c >= len(p.toks) {
				f.endLine = p.at(len(p.toks) - 1).Line
			}
			p.fns = append(p.fns, f)
			return c + 1
		case p.is(k, ";"):
			return k + 1
		case p.is(k, "(") || p.is(k, "["):
			k = p.closeOf(k, end) + 1
		case p.is(k, "}") || p.is(k, ")") || p.is(k, "]"):
			return k
		default:
			k++
		}
	}
	return end
}

// impl parses an impl block, exporting the pub methods of an inherent impl as
// "Type.method".
func (p *parser) impl(i, end int, m *module) int {
	k := i + 1
	angle := 0
	selfType, trait := "", false
	for k < end && !(p.is(k, "{") && angle == 0) {
		t := p.toks[k]
		switch {
		case p.is(k, ";") || p.is(k, "}"):
			return k
		case p.is(k, "(") || p.is(k, "["):
			k = p.closeOf(k, end)
		case p.is(k, "<"):
			angle++
		case p.is(k, ">") && !p.is(k-1, "-"):
			angle--
		case p.is(k, "for") && angle == 0:
			trait, selfType = true, ""
		case p.is(k, "where") && angle == 0:
			angle = -1000 // the rest is bounds
		case t.Kind == tkIdent && angle == 0 && t.Text != "dyn" && t.Text != "mut" && t.Text != "const":
			selfType = t.Text
		}
		k++
	}
	if k >= end {
		p.partial = true
		return end
	}
	c := p.closeOf(k, end)
	typ := &module{path: m.path, exported: m.exported && !trait, test: m.test, self: selfType}
	for j := k + 1; j < c; {
		switch {
		case p.is(j, "pub") && p.is(j+1, "("):
			j = p.closeOf(j+1, c) + 1
		case p.is(j, "pub"):
			n := j + 1
			for p.is(n, "const") || p.is(n, "async") || p.is(n, "unsafe") || p.is(n, "extern") || p.at(n).Kind == tkString {
				n++
			}
			if p.is(n, "fn") && p.at(n+1).Kind == tkIdent && selfType != "" {
				p.export(typ.exported, m, selfType+"."+p.toks[n+1].Text, "method", p.toks[n].Line)
			}
			j = n
		case p.is(j, "fn") && p.at(j+1).Kind == tkIdent:
			// A method: recorded for its helper assertions; the pub case above
			// already exported it.
			j = p.fn(j, c, typ, nil, false, p.toks[j].Line, false)
		case p.isOpener(j):
			j = p.closeOf(j, c) + 1
		default:
			j++
		}
	}
	return c + 1
}

// parseAttr reads the tokens between #[ and ].
func parseAttr(toks []token, line int) attr {
	a := attr{line: line}
	i := 0
	for i < len(toks) && (toks[i].Kind == tkIdent || toks[i].Text == "::") {
		a.path += toks[i].Text
		i++
	}
	if i < len(toks) && toks[i].Text == "(" {
		end := len(toks)
		if toks[end-1].Text == ")" {
			end--
		}
		a.args = toks[i+1 : end]
	} else if i < len(toks) && toks[i].Text == "=" {
		a.args = toks[i+1:]
	}
	return a
}

func hasAttr(attrs []attr, path string) bool {
	for _, a := range attrs {
		if a.path == path {
			return true
		}
	}
	return false
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "::" + name
}

func (p *parser) export(ok bool, m *module, name, kind string, line int) {
	if !ok || name == "" {
		return
	}
	name = join(m.path, name)
	if p.exported == nil {
		p.exported = map[string]bool{}
	}
	key := kind + " " + name // a macro and a module may share a name
	if p.exported[key] {
		return
	}
	p.exported[key] = true
	p.exports = append(p.exports, testscan.Symbol{Name: name, Kind: kind, Line: line})
}

// dropLocal removes from as the assert_* calls (assertCall) of functions the
// file defines itself: helpers, whose own checks count where they are.
func (p *parser) dropLocal(as []testscan.Assertion) []testscan.Assertion {
	out := as[:0]
	for _, a := range as {
		if name, ok := strings.CutSuffix(a.Kind, "()"); ok {
			if p.local == nil {
				p.local = map[string]bool{}
				for _, f := range p.fns {
					p.local[f.name] = true
				}
			}
			if p.local[name] {
				continue
			}
		}
		out = append(out, a)
	}
	return out
}
