package rust

import (
	"sort"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// readFunc reads the exits and literal branches of the function f
// (File.Funcs), named as FuncNames names it. Its exits are its own: the
// returns of a closure, an async block or a nested fn leave those, and
// the tokens of a macro other than the exits below are not read.
//
// An error exit is `return Err(..)`, an `Err(..)` tail, `Err(..)?`,
// panic! and bail! (anyhow's, eyre's); `?` passes an error on and is no
// exit. todo!, unimplemented! and unreachable! leave too, as stubs or
// bugs rather than error paths (other). An empty exit is a bare return,
// `()`, None, an empty String or collection, `Default::default()` or
// `T::default()`, "" and those wrapped in Ok. A tail is the last
// expression of the body, or of the blocks of the if or match it ends
// with, or of a plain block.
func (p *parser) readFunc(f *fnDecl, name string) testscan.Func {
	fn := testscan.Func{Name: name, Line: p.toks[f.at].Line, Returns: p.resultType(f)}
	// Reading a body again finds no group the item parser did not: what
	// it says about the file stands.
	defer func(partial bool) { p.partial = partial }(p.partial)
	if f.bodyClose >= len(p.toks) {
		return fn
	}
	var exits []exitAt
	p.scanExits(f.bodyOpen+1, f.bodyClose, &exits)
	p.blockTail(f.bodyOpen, f.bodyClose, &exits, 0)
	sort.SliceStable(exits, func(a, b int) bool { return exits[a].at < exits[b].at })
	for _, e := range exits {
		fn.AddExit(e.Exit)
	}
	if !testscan.KeepsExits(fn.Exits) {
		fn.Exits = nil
	}
	p.readBranches(&fn, f.bodyOpen, f.bodyClose)
	return fn
}

// resultType is the type after a function's `->` up to its body or where
// clause, "" for none.
func (p *parser) resultType(f *fnDecl) string {
	if f.paramOpen < 0 || f.paramOpen >= len(p.match) {
		return ""
	}
	c := p.match[f.paramOpen]
	if c < 0 || c >= f.bodyOpen || !p.is(c+1, "->") {
		return ""
	}
	end := c + 2
	for end < f.bodyOpen && !p.is(end, "where") {
		end++
	}
	return joinTokens(p.toks[c+2 : end])
}

// exitAt is an exit and the index of its first token, by which exits
// found in two passes are put in source order.
type exitAt struct {
	testscan.Exit
	at int
}

// scanExits finds the returns, `Err(..)?` and exit macros in [from, to),
// closures, async blocks, nested items and other macros skipped.
func (p *parser) scanExits(from, to int, out *[]exitAt) {
	for i := from; i < to; i++ {
		t := p.toks[i]
		switch {
		case p.is(i, "|") || p.is(i, "||"):
			if p.closureStart(i) {
				i = p.closureEnd(i, to) - 1
			}
		case p.is(i, "async") && (p.is(i+1, "{") || p.is(i+1, "move") && p.is(i+2, "{")):
			k := i + 1
			if p.is(k, "move") {
				k++
			}
			i = p.closeOf(k, to)
		case t.Kind == tkIdent && (t.Text == "fn" || t.Text == "impl" || t.Text == "trait" || t.Text == "mod") && p.itemStart(i):
			i = p.itemEnd(i, to) - 1
		case t.Kind == tkIdent && p.is(i+1, "!") && p.isOpener(i+2) && !notMacro[t.Text]:
			c := p.closeOf(i+2, to)
			if kind, ok := macroExit(t.Text); ok {
				if kind == testscan.ExitError && t.Text == "panic" && p.placeholderPanic(i+3, c) {
					kind = testscan.ExitOther
				}
				*out = append(*out, exitAt{testscan.Exit{Line: t.Line, Kind: kind, Text: joinTokens(p.toks[i : c+1])}, i})
			}
			i = c
		case p.is(i, "return"):
			end := p.exprEnd(i+1, to)
			*out = append(*out, exitAt{testscan.Exit{Line: t.Line, Kind: exitKind(p.toks[i+1 : end]), Text: joinTokens(p.toks[i:end])}, i})
			i = end - 1
		case p.is(i, "Err") && p.is(i+1, "(") && !p.is(i-1, "."):
			c := p.closeOf(i+1, to)
			if p.is(c+1, "?") {
				*out = append(*out, exitAt{testscan.Exit{Line: t.Line, Kind: testscan.ExitError, Text: joinTokens(p.toks[i : c+2])}, i})
			}
		}
	}
}

// notMacro are the keywords a `!` after which is a negation, not a macro
// call: `return !(a && b)`, `if !(x) {`.
var notMacro = map[string]bool{
	"return": true, "if": true, "while": true, "match": true, "in": true, "else": true, "let": true,
	"mut": true, "as": true, "break": true, "yield": true, "move": true, "ref": true,
}

// macroExit is the kind of exit a macro of that name is.
func macroExit(name string) (testscan.ExitKind, bool) {
	switch name {
	case "panic", "bail":
		return testscan.ExitError, true
	case "todo", "unimplemented", "unreachable":
		return testscan.ExitOther, true
	}
	return "", false
}

// placeholderPanic reports whether the first argument of a panic! in
// [from, to) says the code is not written.
func (p *parser) placeholderPanic(from, to int) bool {
	return from < to && p.toks[from].Kind == tkString && testscan.PlaceholderMessage(stringValue(p.toks[from].Text))
}

// closureStart reports whether the | or || at i opens a closure's
// parameters: it stands where an expression starts.
func (p *parser) closureStart(i int) bool {
	if i == 0 {
		return true
	}
	prev := p.toks[i-1]
	switch prev.Text {
	case "(", "[", "{", ",", "=", ";", "=>", "move", "return", ":", "!", "&&", "||":
		return prev.Kind == tkPunct || prev.Kind == tkIdent
	case "async", "static":
		return prev.Kind == tkIdent
	}
	return false
}

// closureEnd is the index after the closure whose parameters open at i:
// after its block, or after its expression body (up to a ',' or ';' or
// the closer of what holds it).
func (p *parser) closureEnd(i, to int) int {
	k := i + 1
	if p.is(i, "|") {
		for k < to && !p.is(k, "|") {
			if p.isOpener(k) {
				k = p.closeOf(k, to)
			}
			k++
		}
		k++
	}
	if p.is(k, "->") {
		for k < to && !p.is(k, "{") {
			k++
		}
	}
	if p.is(k, "{") {
		return p.closeOf(k, to) + 1
	}
	return p.exprEnd(k, to)
}

// exprEnd is the index of the ',' or ';' that ends the expression starting
// at from, groups skipped, or of the closer that ends it first (or to).
func (p *parser) exprEnd(from, to int) int {
	for k := from; k < to; k++ {
		switch {
		case p.is(k, ";") || p.is(k, ",") || p.is(k, "}") || p.is(k, ")") || p.is(k, "]"):
			return k
		case p.isOpener(k):
			k = p.closeOf(k, to)
		}
	}
	return to
}

// itemStart reports whether the keyword at i starts an item nested in a
// body (`fn helper() {`), not a type (`impl Fn()`, `fn(u8) -> u8`).
func (p *parser) itemStart(i int) bool {
	if p.is(i, "fn") && p.at(i+1).Kind != tkIdent {
		return false
	}
	prev := p.at(i - 1)
	return i == 0 || prev.Text == ";" || prev.Text == "{" || prev.Text == "}" || prev.Text == "]" ||
		prev.Kind == tkIdent && (prev.Text == "pub" || prev.Text == "async" || prev.Text == "unsafe" || prev.Text == "const")
}

// itemEnd is the index after a nested item whose keyword is at i: after
// its block, or its ';'.
func (p *parser) itemEnd(i, to int) int {
	for k := i + 1; k < to; k++ {
		switch {
		case p.is(k, ";"):
			return k + 1
		case p.is(k, "{"):
			return p.closeOf(k, to) + 1
		case p.is(k, "(") || p.is(k, "["):
			k = p.closeOf(k, to)
		case p.is(k, "}") || p.is(k, ")") || p.is(k, "]"):
			return k
		}
	}
	return to
}

// exitKind is how an exit whose value is expr leaves: an error for
// `Err(..)` (through a path) unless it names an operation not provided
// (testscan.DeclinesOperation: `Err(bad_type(Unsupported::UnitStruct))`,
// other), empty for nothing, (), None, an empty
// String or collection, a default and "" (those wrapped in Ok too), other
// for anything else.
func exitKind(expr []token) testscan.ExitKind {
	if len(expr) >= 3 && expr[len(expr)-1].Text == ")" {
		k := 0
		for k+2 < len(expr) && expr[k+1].Text == "::" && expr[k].Kind == tkIdent {
			k += 2
		}
		if expr[k].Text == "Err" && expr[k].Kind == tkIdent && expr[k+1].Text == "(" && groupEnds(expr[k+1:]) {
			for _, t := range expr[k+2:] {
				if t.Kind == tkIdent && testscan.DeclinesOperation(t.Text) {
					return testscan.ExitOther // an operation not provided
				}
			}
			return testscan.ExitError
		}
	}
	if emptyRust(expr) {
		return testscan.ExitEmpty
	}
	if len(expr) >= 3 && expr[0].Text == "Ok" && expr[1].Text == "(" && groupEnds(expr[1:]) && (len(expr) == 4 && expr[2].Text == "(" || emptyRust(expr[2:len(expr)-1])) {
		return testscan.ExitEmpty
	}
	return testscan.ExitOther
}

// groupEnds reports whether the group that opens toks closes at its end.
func groupEnds(toks []token) bool {
	depth := 0
	for k, t := range toks {
		if t.Kind != tkPunct {
			continue
		}
		switch t.Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return k == len(toks)-1
			}
		}
	}
	return false
}

// emptyCollections are the types whose new() makes an empty value.
var emptyCollections = map[string]bool{
	"Vec": true, "String": true, "HashMap": true, "HashSet": true, "BTreeMap": true, "BTreeSet": true,
	"VecDeque": true, "BinaryHeap": true, "LinkedList": true, "OsString": true, "PathBuf": true,
	"IndexMap": true, "IndexSet": true, "SmallVec": true, "BytesMut": true, "Bytes": true,
}

// emptyRust reports whether expr is nothing in particular: (), None, "",
// vec![], Default::default(), T::default(), an empty collection's new().
func emptyRust(expr []token) bool {
	switch joinTokens(expr) {
	case "", "()", "None", `""`, "vec![]", "Default::default()":
		return true
	}
	n := len(expr)
	if n < 5 || expr[n-1].Text != ")" || expr[n-2].Text != "(" || expr[n-4].Text != "::" || expr[n-5].Kind != tkIdent {
		return false
	}
	switch expr[n-3].Text {
	case "default":
		return true
	case "new":
		return emptyCollections[expr[n-5].Text]
	}
	return false
}
