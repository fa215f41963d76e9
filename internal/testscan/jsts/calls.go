package jsts

// callBase describes a test-defining function name.
type callBase struct {
	group bool
	form  byte // 'x': disabled (xit), 'f': focused (fit), 0: plain
}

// callBases are the functions that define tests and groups in jest, vitest,
// mocha (BDD and TDD), jasmine, node:test and playwright.
var callBases = map[string]callBase{
	"describe": {group: true}, "context": {group: true}, "suite": {group: true},
	"xdescribe": {true, 'x'}, "xcontext": {true, 'x'}, "xsuite": {true, 'x'},
	"fdescribe": {true, 'f'}, "fcontext": {true, 'f'},
	"it": {}, "test": {}, "specify": {},
	"xit": {false, 'x'}, "xtest": {false, 'x'}, "xspecify": {false, 'x'},
	"fit": {false, 'f'}, "ftest": {false, 'f'}, "fspecify": {false, 'f'},
}

// plainModifiers are the chained properties that keep a call a test call.
var plainModifiers = map[string]bool{
	"skip": true, "only": true, "todo": true, "concurrent": true, "failing": true,
	"fails": true, "sequential": true, "serial": true, "parallel": true, "fixme": true,
	"shuffle": true, "describe": true,
}

// argModifiers are the chained calls that take arguments before the test call.
var argModifiers = map[string]bool{"each": true, "for": true, "skipIf": true, "runIf": true}

// modifier is one link of a test call chain such as .skip or .each(table).
type modifier struct {
	name     string
	tok      int
	from, to int // argument tokens of .each(...)/.skipIf(...), or the tagged template
	template bool
}

// call is a recognized test or group call: base, modifier chain and the final
// argument list. close is the closing parenthesis, or a fallback boundary when
// the parenthesis has no partner (a fragment); end is where scanning resumes.
type call struct {
	base   string
	group  bool
	start  int
	mods   []modifier
	open   int
	close  int
	closed bool
	end    int
}

// parseCall recognizes a test or group call starting at identifier i.
func (t *tree) parseCall(i, limit int) (call, bool) {
	name := t.toks[i].Text
	b, ok := callBases[name]
	if !ok || t.isMember(i) {
		return call{}, false
	}
	if t.kind(i-1) == tkIdent {
		switch t.toks[i-1].Text {
		case "function", "class", "const", "let", "var", "new", "import", "interface", "type":
			return call{}, false
		}
	}
	c := call{base: name, group: b.group, start: i}
	switch b.form {
	case 'x':
		c.mods = append(c.mods, modifier{name: "skip", tok: i})
	case 'f':
		c.mods = append(c.mods, modifier{name: "only", tok: i})
	}
	j := i + 1
	for steps := 0; ; steps++ {
		if steps > 10 || j >= limit {
			return call{}, false
		}
		if t.punct(j, "(") {
			break
		}
		if !(t.punct(j, ".") && t.kind(j+1) == tkIdent) {
			return call{}, false
		}
		m := modifier{name: t.toks[j+1].Text, tok: j + 1}
		k := j + 2
		switch {
		case argModifiers[m.name] && t.punct(k, "("):
			if !t.matched(k, limit) {
				return call{}, false
			}
			m.from, m.to = k+1, int(t.match[k])
			j = m.to + 1
		case (m.name == "each" || m.name == "for") && (t.kind(k) == tkTemplate || t.kind(k) == tkTemplateHead):
			m.from, m.to, m.template = k, t.skip(k, limit), true
			j = m.to
		case plainModifiers[m.name]:
			if m.name == "describe" {
				c.group = true
			}
			j = k
		default:
			return call{}, false
		}
		c.mods = append(c.mods, m)
	}
	c.open = j
	if t.matched(j, limit) {
		c.close, c.closed = int(t.match[j]), true
		c.end = c.close + 1
		return c, true
	}
	// Unclosed (a fragment): a group runs to the end of the range, a test up to
	// the next test call.
	c.close = limit
	if !c.group {
		c.close = t.nextCallStart(j+1, limit)
	}
	c.end = c.close
	return c, true
}

// nextCallStart returns the index of the next token that looks like the start
// of a test or group call, or limit.
func (t *tree) nextCallStart(from, limit int) int {
	for j := from; j < limit; j++ {
		if t.toks[j].Kind != tkIdent {
			continue
		}
		if _, ok := callBases[t.toks[j].Text]; ok && !t.isMember(j) && (t.punct(j+1, "(") || t.punct(j+1, ".")) {
			return j
		}
	}
	return limit
}

// fnInfo describes a function argument: its whole range, its body and its first
// parameter (the test context of node:test, ava, tap and vitest).
type fnInfo struct {
	from, to         int
	bodyFrom, bodyTo int
	bodyOpen         int // '{' of a block body, -1 for an expression body
	param            string
	destructured     map[string]bool
	ref              bool // a reference (it('x', helper)), not a literal function
}

// fnAt recognizes a function expression filling the argument [from, to).
func (t *tree) fnAt(from, to int) (fnInfo, bool) {
	f := fnInfo{from: from, to: to, bodyOpen: -1}
	j := from
	if t.ident(j, "async") && j+1 < to {
		j++
	}
	switch {
	case t.ident(j, "function"):
		j++
		if t.punct(j, "*") {
			j++
		}
		if t.kind(j) == tkIdent {
			j++
		}
		if !t.punct(j, "(") {
			return f, false
		}
		t.params(&f, j, to)
		k := t.skip(j, to)
		for k < to && !t.punct(k, "{") {
			k = t.skip(k, to)
		}
		if k >= to {
			return f, false
		}
		t.blockBody(&f, k, to)
		return f, true
	case t.punct(j, "("):
		t.params(&f, j, to)
		k := t.skip(j, to)
		if t.punct(k, ":") { // return type annotation
			for k < to && !t.punct(k, "=>") {
				k = t.skip(k, to)
			}
		}
		if !t.punct(k, "=>") {
			return f, false
		}
		t.arrowBody(&f, k+1, to)
		return f, true
	case t.kind(j) == tkIdent && t.punct(j+1, "=>"):
		f.param = t.toks[j].Text
		t.arrowBody(&f, j+2, to)
		return f, true
	}
	return f, false
}

// refAt recognizes a function passed by reference: an identifier or a dotted
// member chain.
func (t *tree) refAt(from, to int) (fnInfo, bool) {
	if from >= to || t.kind(from) != tkIdent || constKeywords[t.toks[from].Text] {
		return fnInfo{}, false
	}
	for j := from + 1; j < to; j++ {
		if !(t.punct(j, ".") || t.kind(j) == tkIdent) {
			return fnInfo{}, false
		}
	}
	return fnInfo{from: from, to: to, bodyFrom: from, bodyTo: to, bodyOpen: -1, ref: true}, true
}

func (t *tree) arrowBody(f *fnInfo, k, to int) {
	if t.punct(k, "{") {
		t.blockBody(f, k, to)
		return
	}
	f.bodyFrom, f.bodyTo = k, to
}

func (t *tree) blockBody(f *fnInfo, open, to int) {
	f.bodyOpen = open
	f.bodyFrom = open + 1
	f.bodyTo = t.closeOf(open, to)
	if !t.matched(open, to) {
		f.bodyTo = to
	}
}

// params records the first parameter of the list opened at open, skipping a
// TypeScript "this" parameter.
func (t *tree) params(f *fnInfo, open, to int) {
	close := t.closeOf(open, to)
	args := t.splitArgs(open, close)
	for _, a := range args {
		if t.ident(a[0], "this") && t.punct(a[0]+1, ":") {
			continue
		}
		switch {
		case t.kind(a[0]) == tkIdent:
			f.param = t.toks[a[0]].Text
		case t.punct(a[0], "{"):
			f.destructured = map[string]bool{}
			end := t.closeOf(a[0], a[1]+1)
			for k := a[0] + 1; k < end; k++ {
				if t.kind(k) == tkIdent && !t.isMember(k) && (t.punct(k+1, ",") || t.punct(k+1, "}") || t.punct(k+1, "=")) {
					f.destructured[t.toks[k].Text] = true
				}
			}
		}
		return
	}
}
