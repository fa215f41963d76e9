package rust

import (
	"sort"
	"strings"

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

// maxTailDepth bounds the nesting of tails blockTail follows.
const maxTailDepth = 32

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

// blockTail adds the tail exits of the block between the braces at open
// and close: its last expression when no ';' ends it.
func (p *parser) blockTail(open, close int, out *[]exitAt, depth int) {
	if depth > maxTailDepth {
		return
	}
	k := open + 1
	for k < close {
		end, blockLike := p.statementEnd(k, close)
		if end >= close {
			if blockLike {
				p.tailExpr(k, close, out, depth+1)
			} else {
				p.plainTail(k, close, out)
			}
			return
		}
		if p.is(end, ";") {
			end++
		}
		k = end
	}
}

// statementEnd is where the statement at k ends: its ';', or the index
// after the block that ends a block-like expression (if, match, loop,
// while, for, unsafe, a plain block) or a nested item; close when it runs
// to the block's end. blockLike says the statement is such an expression.
func (p *parser) statementEnd(k, close int) (int, bool) {
	t := p.toks[k]
	switch {
	case p.is(k, "#") && p.is(k+1, "["):
		return p.closeOf(k+1, close) + 1, false
	case t.Kind == tkLifetime && p.is(k+1, ":"):
		end, _ := p.statementEnd(k+2, close)
		return end, false
	case t.Kind == tkIdent && (t.Text == "fn" || t.Text == "impl" || t.Text == "trait" || t.Text == "mod" || t.Text == "struct" || t.Text == "enum" || t.Text == "use") && p.itemStart(k):
		return p.itemEnd(k, close), false
	case p.is(k, "if") || p.is(k, "match") || p.is(k, "loop") || p.is(k, "while") || p.is(k, "for") || p.is(k, "unsafe") || p.is(k, "{"):
		end := p.blockExprEnd(k, close)
		if end < close && !p.is(end, ";") && !p.is(end, ".") && !p.is(end, "?") && !binaryOp(p.at(end)) {
			return end, true
		}
		if end >= close {
			return close, true
		}
	}
	for j := k; j < close; j++ {
		switch {
		case p.is(j, ";"):
			return j, false
		case p.isOpener(j):
			j = p.closeOf(j, close)
		}
	}
	return close, false
}

// binaryOp reports an operator that continues an expression after a
// block (`match x {..} + 1`).
func binaryOp(t token) bool {
	if t.Kind != tkPunct {
		return false
	}
	switch t.Text {
	case "+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&", "||", "&", "|", "^", "as", "..", "=":
		return true
	}
	return false
}

// blockExprEnd is the index after the block-like expression at k: an if
// with its else chain, a match, a loop, a plain or unsafe block.
func (p *parser) blockExprEnd(k, close int) int {
	for n := 0; k < close && n < 1024; n++ {
		open := p.headBlock(k, close)
		if open >= close {
			return close
		}
		end := p.closeOf(open, close) + 1
		if p.is(k, "if") && p.is(end, "else") {
			k = end + 1
			continue
		}
		return end
	}
	return close
}

// headBlock is the index of the block of the block-like expression at k:
// the first '{' after its head (an if's condition, a match's subject), or
// k itself for a plain block.
func (p *parser) headBlock(k, close int) int {
	if p.is(k, "{") {
		return k
	}
	for j := k + 1; j < close; j++ {
		switch {
		case p.is(j, "{"):
			return j
		case p.is(j, "(") || p.is(j, "["):
			j = p.closeOf(j, close)
		case p.is(j, ";") || p.is(j, "}") || p.is(j, ")") || p.is(j, "]") || p.is(j, "=>"):
			return close
		}
	}
	return close
}

// tailExpr adds the tail exits of the block-like expression [k, end): each
// branch of an if, each arm of a match, a block's tail.
func (p *parser) tailExpr(k, end int, out *[]exitAt, depth int) {
	if depth > maxTailDepth {
		return
	}
	switch {
	case p.is(k, "if"):
		for k < end {
			open := p.headBlock(k, end)
			if open >= end {
				return
			}
			c := p.closeOf(open, end)
			p.blockTail(open, c, out, depth+1)
			if !p.is(c+1, "else") {
				return
			}
			k = c + 2
			if p.is(k, "{") {
				p.blockTail(k, p.closeOf(k, end), out, depth+1)
				return
			}
		}
	case p.is(k, "match"):
		open := p.headBlock(k, end)
		if open >= end {
			return
		}
		c := p.closeOf(open, end)
		for a := open + 1; a < c; {
			arrow := a
			for arrow < c && !p.is(arrow, "=>") {
				if p.isOpener(arrow) {
					arrow = p.closeOf(arrow, c)
				}
				arrow++
			}
			if arrow >= c {
				return
			}
			body := arrow + 1
			if p.is(body, "{") {
				bc := p.closeOf(body, c)
				if next := bc + 1; next >= c || p.is(next, ",") || !p.is(next, ".") && !p.is(next, "?") {
					p.blockTail(body, bc, out, depth+1)
					a = next
					if p.is(a, ",") {
						a++
					}
					continue
				}
			}
			armEnd := p.exprEnd(body, c)
			if p.is(body, "if") || p.is(body, "match") || p.is(body, "unsafe") {
				p.tailExpr(body, armEnd, out, depth+1)
			} else {
				p.plainTail(body, armEnd, out)
			}
			a = armEnd + 1
		}
	case p.is(k, "{"):
		p.blockTail(k, p.closeOf(k, end), out, depth+1)
	case p.is(k, "unsafe") && p.is(k+1, "{"):
		p.blockTail(k+1, p.closeOf(k+1, end), out, depth+1)
	}
}

// plainTail adds the exit of a tail expression [from, to) that is not
// block-like; returns, exit macros and `Err(..)?` are scanExits's.
func (p *parser) plainTail(from, to int, out *[]exitAt) {
	if from >= to || p.is(from, "return") || p.is(from, "break") || p.is(from, "continue") {
		return
	}
	expr := p.toks[from:to]
	if n := len(expr); n >= 4 && expr[n-1].Text == ")" || n >= 4 && expr[n-1].Text == "]" || n >= 4 && expr[n-1].Text == "}" {
		// a macro call: name ! ( .. ), with an optional path
		if o := p.match[to-1]; o > from && p.is(o-1, "!") && p.at(o-2).Kind == tkIdent && p.pathFrom(from, o-2) {
			return
		}
	}
	*out = append(*out, exitAt{testscan.Exit{Line: expr[0].Line, Kind: exitKind(expr), Text: joinTokens(expr)}, from})
}

// pathFrom reports whether [from, to] is a path of names (`a::b::c`).
func (p *parser) pathFrom(from, to int) bool {
	for k := from; k <= to; k++ {
		if (k-from)%2 == 0 && p.at(k).Kind != tkIdent || (k-from)%2 == 1 && !p.is(k, "::") {
			return false
		}
	}
	return (to-from)%2 == 0
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

// readBranches adds to f the branches in (open, close) that test a
// variable against a literal and answer with a literal: `if x == 5 {
// return "five"; }`, `if x == "a" { 1 } else ..`, the arms `42 => true`
// of a match on a variable.
func (p *parser) readBranches(f *testscan.Func, open, close int) {
	for i := open + 1; i < close; i++ {
		switch {
		case p.is(i, "if") && !p.is(i+1, "let"):
			b := p.headBlock(i, close)
			if b >= close || !p.is(b, "{") {
				continue
			}
			subj, lit, ok := p.literalTest(i+1, b)
			if !ok {
				continue
			}
			if ans := p.blockAnswer(b, close); ans != "" {
				f.AddBranch(testscan.Branch{Line: p.toks[i].Line, Subject: subj, Literal: lit, Answer: ans})
			}
		case p.is(i, "match"):
			b := p.headBlock(i, close)
			if b >= close {
				continue
			}
			// `match c as u8 {` matches on c, as it does once the
			// conversion is dropped.
			to := b
			if b-2 > i+1 && p.is(b-2, "as") && p.at(b-1).Kind == tkIdent {
				to = b - 2
			}
			if p.subject(i+1, to) {
				p.matchArms(f, joinTokens(p.toks[i+1:to]), b, p.closeOf(b, close))
			}
		}
	}
}

// matchArms adds the literal arms of the match on subj whose arms are
// between the braces at open and close.
func (p *parser) matchArms(f *testscan.Func, subj string, open, close int) {
	for a := open + 1; a < close; {
		arrow := a
		for arrow < close && !p.is(arrow, "=>") {
			if p.isOpener(arrow) {
				arrow = p.closeOf(arrow, close)
			}
			arrow++
		}
		if arrow >= close {
			return
		}
		body := arrow + 1
		end := p.exprEnd(body, close)
		if p.is(body, "{") {
			end = p.closeOf(body, close) + 1
		}
		if lit := p.armPattern(a, arrow); lit != "" {
			ans := ""
			switch {
			case p.is(body, "{"):
				ans = p.blockAnswer(body, close)
			case p.is(body, "return"):
				ans = p.answerAt(body+1, end)
			default:
				ans = p.answerAt(body, end)
			}
			if ans != "" {
				f.AddBranch(testscan.Branch{Line: p.toks[a].Line, Subject: subj, Literal: lit, Answer: ans, Case: true})
			}
		}
		a = end
		if p.is(a, ",") {
			a++
		}
	}
}

// armPattern is the literal pattern of a match arm [from, to) (`5`, `"a" |
// "b"`), its alternatives joined by ", "; "" when any part is not a
// literal, or the arm has a guard.
func (p *parser) armPattern(from, to int) string {
	if p.is(from, "|") {
		from++
	}
	var lits []string
	start := from
	for k := from; k <= to; k++ {
		if k < to && !p.is(k, "|") {
			continue
		}
		lit, ok := branchLiteral(p.toks[start:k])
		if !ok {
			return ""
		}
		lits = append(lits, lit)
		start = k + 1
	}
	return strings.Join(lits, ", ")
}

// branchLiteral is the text of a string (not ""), char or number literal,
// a number possibly negated; true and false are not special cases.
func branchLiteral(toks []token) (string, bool) {
	if !isLiteral(toks) || toks[len(toks)-1].Kind == tkIdent {
		return "", false
	}
	text := joinTokens(toks)
	return text, text != `""`
}

// literalTest reads a condition [from, to) `x == lit` or `lit == x` whose x
// is a variable (a name or a chain of fields); a named constant is not a
// literal.
func (p *parser) literalTest(from, to int) (subject, lit string, ok bool) {
	op := -1
	for k := from; k < to; k++ {
		switch {
		case p.is(k, "==") && op < 0:
			op = k
		case p.is(k, "==") || p.is(k, "&&") || p.is(k, "||") || p.is(k, "!=") || p.isOpener(k):
			return "", "", false
		}
	}
	if op < 0 {
		return "", "", false
	}
	if l, ok := branchLiteral(p.toks[op+1 : to]); ok && p.fieldChain(from, op) {
		return joinTokens(p.toks[from:op]), l, true
	}
	if l, ok := branchLiteral(p.toks[from:op]); ok && p.fieldChain(op+1, to) {
		return joinTokens(p.toks[op+1 : to]), l, true
	}
	return "", "", false
}

// fieldChain reports whether [from, to) is a variable or a chain of its
// fields (`kind`, `self.mode`), possibly dereferenced, not a CONSTANT.
func (p *parser) fieldChain(from, to int) bool {
	if p.is(from, "*") {
		from++
	}
	if from >= to || (to-from)%2 == 0 {
		return false
	}
	for k := from; k < to; k++ {
		if (k-from)%2 == 0 && p.at(k).Kind != tkIdent || (k-from)%2 == 1 && !p.is(k, ".") {
			return false
		}
	}
	last := p.toks[to-1].Text
	return last == "self" || strings.ToUpper(last) != last || strings.ToLower(last) == last
}

// subject reports whether the match subject [from, to) is a variable, a
// chain of its fields or of calls without arguments (`kind`, `self.mode`,
// `name.as_str()`), possibly borrowed or dereferenced.
func (p *parser) subject(from, to int) bool {
	for from < to && (p.is(from, "&") || p.is(from, "*")) {
		from++
	}
	if from >= to || p.at(from).Kind != tkIdent {
		return false
	}
	for k := from + 1; k < to; k++ {
		switch {
		case p.is(k, ".") && p.at(k+1).Kind == tkIdent:
			k++
		case p.is(k, "(") && p.is(k+1, ")"):
			k++
		default:
			return false
		}
	}
	return true
}

// blockAnswer is the literal the block opening at open answers with at
// once: `{ lit }`, `{ return lit; }`, `{ x = lit; }`; true and false
// answer.
func (p *parser) blockAnswer(open, close int) string {
	c := p.closeOf(open, close)
	k := open + 1
	switch {
	case p.is(k, "return"):
		k++
	case p.at(k).Kind == tkIdent && p.fieldChain(k, k+1) && (p.is(k+1, "=") || p.is(k+1, ".")):
		j := k
		for p.is(j+1, ".") && p.at(j+2).Kind == tkIdent {
			j += 2
		}
		if !p.is(j+1, "=") {
			return ""
		}
		k = j + 2
	}
	end := k + 1
	if p.is(k, "-") {
		end++
	}
	if end > c || !(end == c || p.is(end, ";")) {
		return ""
	}
	return p.answerAt(k, end)
}

// answerAt is the literal [k, end) when it is one.
func (p *parser) answerAt(k, end int) string {
	if k >= end || !isLiteral(p.toks[k:end]) {
		return ""
	}
	return joinTokens(p.toks[k:end])
}
