package java

import (
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// annotation is one @Name or @Name(args) use.
type annotation struct {
	name    string  // last segment of the name: "Test" for @org.junit.Test
	args    []token // the tokens between the parentheses
	hasArgs bool
	line    int
}

// typeDecl is a class, interface, enum, record or annotation type.
type typeDecl struct {
	name     string
	qual     string // "Outer.Inner"
	kind     string // "class", "interface", "enum", "record", "annotation"
	annots   []annotation
	extends  string // the last identifier of the superclass, "" when none
	exported bool   // public, and every enclosing type is public
	parent   *typeDecl
}

// methodDecl is a method or constructor with its annotations and modifiers.
type methodDecl struct {
	owner     *typeDecl
	name      string
	annots    []annotation
	mods      map[string]bool
	void      bool
	noParams  bool
	line      int // first line of the declaration, annotations included
	start     int // index of the declaration's first token
	nameAt    int // index of the name
	bodyOpen  int // index of '{', -1 for a method without a body
	bodyClose int // index of the matching '}', or len(toks) when unterminated
	endLine   int
}

// parser walks the declarations of one file.
type parser struct {
	toks     []token
	match    []int
	stem     string // the file name without .java, the class of orphan members
	testng   bool
	partial  bool
	implicit *typeDecl
	methods  []*methodDecl
	exports  []testscan.Symbol
	exported map[string]bool
	callBuf  []testscan.Call // scratch for scanBody
}

var modifiers = map[string]bool{
	"public": true, "protected": true, "private": true, "static": true, "final": true,
	"abstract": true, "default": true, "synchronized": true, "native": true,
	"transient": true, "volatile": true, "strictfp": true, "sealed": true, "non": true,
}

// statementWords are keywords that start a statement: seen where a member should
// be, they mean the text is a fragment of a method body.
var statementWords = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "return": true,
	"new": true, "synchronized": true, "try": true, "do": true, "else": true, "throw": true,
	"assert": true, "super": true, "this": true, "yield": true,
}

func (p *parser) at(i int) token {
	if i < 0 || i >= len(p.toks) {
		return token{}
	}
	return p.toks[i]
}

func (p *parser) is(i int, text string) bool {
	t := p.at(i)
	return t.Text == text && t.Kind != tkString && t.Kind != tkChar
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

// members parses the declarations in toks[i:end] that belong to owner (nil at the
// top level of the file).
func (p *parser) members(i, end int, owner *typeDecl) {
	if owner != nil && owner.kind == "enum" {
		i = p.skipEnumConstants(i, end)
	}
	var annots []annotation
	mods := map[string]bool{}
	start := -1
	reset := func() {
		annots = nil
		mods = map[string]bool{}
		start = -1
	}
	for i < end {
		t := p.toks[i]
		if start < 0 {
			start = i
		}
		switch {
		case p.is(i, "@") && p.at(i+1).Text == "interface":
			i = p.typeDecl(i+1, end, "annotation", owner, annots, mods)
			reset()
		case p.is(i, "@") && p.at(i+1).Kind == tkIdent:
			var a annotation
			a, i = p.annotation(i, end)
			annots = append(annots, a)
		case p.is(i, ";"):
			reset()
			i++
		case p.is(i, "{"):
			i = p.closeOf(i, end) + 1
			reset()
		case p.is(i, "}") || p.is(i, ")") || p.is(i, "]"):
			p.partial = true
			reset()
			i++
		case t.Kind == tkIdent && owner == nil && (t.Text == "package" || t.Text == "import"):
			i = p.skipStatement(i, end)
			reset()
		case t.Kind == tkIdent && modifiers[t.Text]:
			mods[t.Text] = true
			i++
			if t.Text == "non" && p.is(i, "-") {
				i += 2 // non-sealed
			}
		case t.Kind == tkIdent && (t.Text == "class" || t.Text == "interface" || t.Text == "enum") && p.at(i+1).Kind == tkIdent,
			t.Kind == tkIdent && t.Text == "record" && p.at(i+1).Kind == tkIdent && (p.is(i+2, "(") || p.is(i+2, "<")):
			i = p.typeDecl(i, end, t.Text, owner, annots, mods)
			reset()
		default:
			i = p.member(i, end, owner, annots, mods, start)
			reset()
		}
	}
}

// annotation parses @a.b.Name or @Name(args) at i.
func (p *parser) annotation(i, end int) (annotation, int) {
	a := annotation{line: p.toks[i].Line}
	i++
	for i < end && p.at(i).Kind == tkIdent {
		a.name = p.toks[i].Text
		i++
		if !p.is(i, ".") || p.at(i+1).Kind != tkIdent {
			break
		}
		i++
	}
	if i < end && p.is(i, "(") {
		c := p.closeOf(i, end)
		a.args = p.toks[i+1 : c]
		a.hasArgs = true
		i = c + 1
	}
	return a, i
}

// skipStatement skips to just past the next ';' at this nesting level.
func (p *parser) skipStatement(i, end int) int {
	for i < end {
		switch {
		case p.is(i, ";"):
			return i + 1
		case p.is(i, "(") || p.is(i, "[") || p.is(i, "{"):
			i = p.closeOf(i, end) + 1
		case p.is(i, "}") || p.is(i, ")"):
			return i // a closer of an enclosing group: let the caller see it
		default:
			i++
		}
	}
	return end
}

// skipEnumConstants skips an enum's constant list up to its ';'.
func (p *parser) skipEnumConstants(i, end int) int {
	for i < end {
		switch {
		case p.is(i, ";"):
			return i + 1
		case p.is(i, "(") || p.is(i, "{") || p.is(i, "["):
			i = p.closeOf(i, end) + 1
		default:
			i++
		}
	}
	return end
}

// typeDecl parses a type declaration whose keyword is at i.
func (p *parser) typeDecl(i, end int, kind string, owner *typeDecl, annots []annotation, mods map[string]bool) int {
	td := &typeDecl{name: p.at(i + 1).Text, kind: kind, annots: annots, parent: owner}
	if td.name == "" || p.at(i+1).Kind != tkIdent {
		return i + 1
	}
	td.qual = td.name
	public := mods["public"]
	if owner != nil {
		td.qual = owner.qual + "." + td.name
		public = public || (owner.kind == "interface" || owner.kind == "annotation") && !mods["private"]
	}
	td.exported = public && (owner == nil || owner.exported)
	k := i + 2
	for k < end && !p.is(k, "{") {
		switch {
		case p.is(k, ";") || p.is(k, "}"):
			p.partial = true
			return k
		case p.is(k, "("):
			k = p.closeOf(k, end) + 1
		case p.at(k).Text == "extends" && td.extends == "":
			k++
			for k < end && (p.at(k).Kind == tkIdent || p.is(k, ".")) {
				if p.at(k).Kind == tkIdent {
					td.extends = p.toks[k].Text
				}
				k++
			}
		default:
			k++
		}
	}
	if k >= end {
		p.partial = true
		return end
	}
	if td.exported {
		p.export(td.qual, "class", p.toks[i].Line)
	}
	c := p.closeOf(k, end)
	p.members(k+1, c, td)
	return c + 1
}

// member parses a field, method or constructor starting at i, whose
// declaration (annotations included) starts at start.
func (p *parser) member(i, end int, owner *typeDecl, annots []annotation, mods map[string]bool, start int) int {
	for j := i; j < end; j++ {
		switch {
		case p.is(j, "("):
			name := p.at(j - 1)
			if j == i || name.Kind != tkIdent || statementWords[name.Text] {
				// A statement from a method body: skip it whole.
				return p.skipStatementOrBlock(j, end)
			}
			return p.method(j, end, owner, annots, mods, start)
		case p.is(j, "=") || p.is(j, ";"):
			if mods["public"] && mods["static"] && mods["final"] && owner != nil && owner.exported && p.at(j-1).Kind == tkIdent {
				p.export(owner.qual+"."+p.toks[j-1].Text, "const", p.toks[j-1].Line)
			}
			return p.skipStatement(j, end)
		case p.is(j, "{"):
			return p.closeOf(j, end) + 1
		case p.is(j, "}") || p.is(j, ")") || p.is(j, "]"):
			return j
		case p.is(j, "["):
			j = p.closeOf(j, end)
		}
	}
	return end
}

// skipStatementOrBlock skips a statement head such as `if (...)` and the block or
// statement after it.
func (p *parser) skipStatementOrBlock(j, end int) int {
	j = p.closeOf(j, end) + 1
	if p.is(j, "{") {
		return p.closeOf(j, end) + 1
	}
	return p.skipStatement(j, end)
}

// method parses a method or constructor whose parameter list opens at j
// and whose declaration starts at start.
func (p *parser) method(j, end int, owner *typeDecl, annots []annotation, mods map[string]bool, start int) int {
	if owner == nil {
		// An orphan member: a fragment without its class header. Java files name
		// their top-level class after the file.
		if p.implicit == nil {
			p.implicit = &typeDecl{name: p.stem, qual: p.stem, kind: "class"}
		}
		owner = p.implicit
		p.partial = true
	}
	m := &methodDecl{
		owner: owner, name: p.toks[j-1].Text, annots: annots, mods: mods,
		void: p.at(j-2).Text == "void", line: p.toks[start].Line, start: start, nameAt: j - 1, bodyOpen: -1,
	}
	c := p.closeOf(j, end)
	m.noParams = c == j+1
	k := c + 1
	for k < end {
		switch {
		case p.is(k, "{"):
			m.bodyOpen = k
			m.bodyClose = p.closeOf(k, end)
			m.endLine = p.at(m.bodyClose).Line
			if m.bodyClose >= len(p.toks) {
				m.endLine = p.at(len(p.toks) - 1).Line
			}
			p.methods = append(p.methods, m)
			p.exportMethod(m)
			return m.bodyClose + 1
		case p.is(k, ";") || p.at(k).Text == "default":
			p.exportMethod(m)
			return p.skipStatement(k, end)
		case p.is(k, "}") || p.is(k, ")"):
			return k
		case p.is(k, "("):
			k = p.closeOf(k, end) + 1
		default:
			k++
		}
	}
	return end
}

func (p *parser) exportMethod(m *methodDecl) {
	if !m.owner.exported || m.mods["private"] {
		return
	}
	if m.mods["public"] || (m.owner.kind == "interface" || m.owner.kind == "annotation") && !m.mods["protected"] {
		p.export(m.owner.qual+"."+m.name, "method", m.line)
	}
}

func (p *parser) export(name, kind string, line int) {
	if p.exported == nil {
		p.exported = map[string]bool{}
	}
	key := kind + " " + name
	if p.exported[key] {
		return // an overload
	}
	p.exported[key] = true
	p.exports = append(p.exports, testscan.Symbol{Name: name, Kind: kind, Line: line})
}
