package mutate

import (
	"errors"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"strings"

	pylex "github.com/ralph-gate/ralph-gate/internal/testscan/python"
)

func init() { register(pythonMutator{}) }

// pythonMutator makes the mutants of Python files. It reads the source as
// tokens (testscan's Python tokenizer), so an operator inside a string, an
// f-string's replacement field or a comment is never one it touches, and it
// edits only whole tokens, which keeps indentation exact.
type pythonMutator struct{}

// Name is the language's name.
func (pythonMutator) Name() string { return "python" }

// Handles reports a .py file.
func (pythonMutator) Handles(p string) bool { return ext(p) == ".py" }

// pythonArid are the statements whose breakage no reviewer would act on:
// logging and printing, re-raising a caught error wrapped (raise X from e),
// a simple field return, pass, del and assert (asserts are the tests'
// business). Each is matched against a statement's text, from its first
// token to its last (a multi-line call included, comments after it not), so
// every line of an arid statement is arid.
var pythonArid = []*lazyre.Regexp{
	lazyre.New(`^(logging|logger|log|_logger|_log|LOGGER|LOG|self\.(logger|log|_logger|_log))\.`),
	lazyre.New(`^print\(`),
	// A project's own logger, however spelled: a call named for a level.
	lazyre.New(`^([\w.]+\.)?(trace|debug|info|warn|warning|log|log_debug|log_info)\(`),
	lazyre.New(`^warnings\.warn\(`),
	lazyre.New(`(?s)^raise\b.*\bfrom\b`),
	lazyre.New(`^return\s+self\.\w+$`),
	lazyre.New(`^(pass|del|assert)\b`),
}

// pyKeywords are the keywords that cannot end an operand, so that a '-' or
// '*' after one is unary or a star, never a binary operator.
var pyKeywords = map[string]bool{
	"and": true, "or": true, "not": true, "in": true, "is": true, "if": true, "elif": true,
	"else": true, "while": true, "for": true, "return": true, "yield": true, "lambda": true,
	"await": true, "assert": true, "del": true, "raise": true, "from": true, "import": true,
	"with": true, "as": true, "global": true, "nonlocal": true, "pass": true, "break": true,
	"continue": true, "try": true, "except": true, "finally": true, "def": true, "class": true,
	"async": true,
}

// errPyTokenize is the error of a file that does not tokenize as Python.
var errPyTokenize = errors.New("does not tokenize as Python (unterminated string, unbalanced bracket or stray indent)")

// pyStmt is one simple statement: the tokens [first, end) of a logical line,
// or of the part of one between depth-0 semicolons.
type pyStmt struct{ first, end int }

// pyFile is a tokenized Python source with what the operators need to know
// about each token: its statement, its bracket partner and depth, whether it
// is frozen (in a decorator, an import, a def or class header, a case
// pattern) and whether an 'in' belongs to a for.
type pyFile struct {
	src    string
	toks   []pylex.Token
	stmts  []pyStmt
	stmtOf []int // index in stmts; -1 for NEWLINE, INDENT, DEDENT and ';'
	match  []int // partner of a bracket, -1 otherwise
	depth  []int // bracket depth (a closer has its opener's)
	frozen []bool
	forIn  []bool
}

// Mutants returns at most one mutant per line of lines, in line order.
func (pythonMutator) Mutants(p string, src []byte, lines []int, arid *Arid) ([]Mutant, error) {
	f, err := newPyFile(string(src))
	if err != nil {
		return nil, fmt.Errorf("mutate %s: %w", p, err)
	}
	byLine := f.lineRanges(lineSet(lines))
	var out []Mutant
	for _, l := range sortedLines(lines) {
		r, ok := byLine[l]
		if !ok {
			continue
		}
		st := f.stmts[f.stmtOf[r[0]]]
		if f.arid(st, l, arid) {
			continue
		}
		if m, ok := firstValid(p, src, l, f.edits(r[0], r[1]), len(f.toks), pyValid); ok {
			out = append(out, m)
		}
	}
	return out, nil
}

// pyValid reports whether a mutated source still tokenizes as Python with
// ntoks tokens.
func pyValid(mut []byte, ntoks int) bool {
	toks, ok := pylex.Tokenize(string(mut))
	return ok && len(toks) == ntoks
}

// newPyFile tokenizes src and reads its statements, brackets and frozen
// tokens.
func newPyFile(src string) (*pyFile, error) {
	toks, ok := pylex.Tokenize(src)
	if !ok {
		return nil, errPyTokenize
	}
	n := len(toks)
	f := &pyFile{src: src, toks: toks, stmtOf: make([]int, n), match: make([]int, n),
		depth: make([]int, n), frozen: make([]bool, n), forIn: make([]bool, n)}
	var open []int
	start := -1
	closeStmt := func(end int) {
		if start >= 0 {
			f.stmts = append(f.stmts, pyStmt{start, end})
			start = -1
		}
	}
	for i, t := range toks {
		f.match[i] = -1
		f.stmtOf[i] = -1
		switch t.Kind {
		case pylex.TokenNewline, pylex.TokenIndent, pylex.TokenDedent:
			closeStmt(i)
			open = open[:0]
			continue
		}
		text := f.text(i)
		if t.Kind == pylex.TokenOp && text == ";" && len(open) == 0 {
			closeStmt(i)
			continue
		}
		if start < 0 {
			start = i
		}
		f.stmtOf[i] = len(f.stmts)
		f.depth[i] = len(open)
		if t.Kind != pylex.TokenOp {
			continue
		}
		switch text {
		case "(", "[", "{":
			open = append(open, i)
		case ")", "]", "}":
			if len(open) > 0 {
				o := open[len(open)-1]
				open = open[:len(open)-1]
				f.match[o], f.match[i] = i, o
				f.depth[i] = len(open)
			}
		}
	}
	closeStmt(n)
	for _, st := range f.stmts {
		f.freeze(st)
		f.markForIn(st)
	}
	return f, nil
}

// text is the source of token i.
func (f *pyFile) text(i int) string { return f.src[f.toks[i].Off:f.toks[i].End] }

// is reports whether token i exists inside statement st and reads s.
func (f *pyFile) is(st pyStmt, i int, s string) bool {
	return i >= st.first && i < st.end && f.text(i) == s
}

// colon returns the first depth-0 ':' of st at or after from, or -1.
func (f *pyFile) colon(st pyStmt, from int) int {
	for i := from; i < st.end; i++ {
		if f.depth[i] == 0 && f.toks[i].Kind == pylex.TokenOp && f.text(i) == ":" {
			return i
		}
	}
	return -1
}

// freeze marks the tokens of st no operator may touch: all of a decorator
// or an import; a def or class header up to its colon (parameter defaults,
// annotations, bases); a case pattern up to its guard or colon.
func (f *pyFile) freeze(st pyStmt) {
	upto := st.first
	switch first := f.text(st.first); {
	case first == "@" || first == "import" || first == "from":
		upto = st.end
	case first == "def" || first == "class" || (first == "async" && f.is(st, st.first+1, "def")):
		upto = st.end
		if c := f.colon(st, st.first); c >= 0 {
			upto = c + 1
		}
	case first == "case" && f.caseStmt(st):
		upto = f.colon(st, st.first)
		for i := st.first + 1; i < upto; i++ {
			if f.depth[i] == 0 && f.text(i) == "if" {
				upto = i
				break
			}
		}
	}
	for i := st.first; i < upto; i++ {
		f.frozen[i] = true
	}
}

// caseStmt reports whether st, starting with the soft keyword case, is a
// match statement's case clause (a depth-0 colon and no assignment before
// it) rather than a statement about a variable named case.
func (f *pyFile) caseStmt(st pyStmt) bool {
	c := f.colon(st, st.first+1)
	if c < 0 || c == st.first+1 {
		return false
	}
	for i := st.first + 1; i < c; i++ {
		if f.depth[i] == 0 && f.text(i) == "=" {
			return false
		}
	}
	return true
}

// markForIn marks each 'in' that ends a for target (for x in y, in a
// statement or a comprehension), which is no membership test to flip.
func (f *pyFile) markForIn(st pyStmt) {
	var pending []int // pending fors by depth
	for i := st.first; i < st.end; i++ {
		d := f.depth[i]
		for len(pending) <= d+1 {
			pending = append(pending, 0)
		}
		if f.toks[i].Kind == pylex.TokenOp && f.match[i] >= 0 && f.match[i] < i {
			pending[d+1] = 0 // a closed bracket ends the fors inside it
		}
		if f.toks[i].Kind != pylex.TokenName {
			continue
		}
		switch f.text(i) {
		case "for":
			pending[d]++
		case "in":
			if pending[d] > 0 {
				pending[d]--
				f.forIn[i] = true
			}
		}
	}
}

// lineRanges maps each wanted line to the token range [lo, hi) of the tokens
// that start on it.
func (f *pyFile) lineRanges(want map[int]bool) map[int][2]int {
	out := map[int][2]int{}
	for i, t := range f.toks {
		if f.stmtOf[i] < 0 || !want[t.Line] {
			continue
		}
		if r, ok := out[t.Line]; ok {
			out[t.Line] = [2]int{r[0], i + 1}
		} else {
			out[t.Line] = [2]int{i, i + 1}
		}
	}
	return out
}

// arid reports whether the statement holding line's first token is one
// pythonArid (or the configuration, on the line or the statement's first
// line) leaves alone, or a docstring.
func (f *pyFile) arid(st pyStmt, line int, a *Arid) bool {
	text := f.src[f.toks[st.first].Off:f.toks[st.end-1].End]
	if f.statementsOn(line) > 1 {
		// `print(x); y = a > b`: the line holds more than the arid
		// statement, and its logic keeps its mutant.
		return a.Matches(lineText([]byte(f.src), line))
	}
	for _, re := range pythonArid {
		if re.MatchString(text) {
			return true
		}
	}
	doc := true
	for i := st.first; i < st.end; i++ {
		doc = doc && f.toks[i].Kind == pylex.TokenString
	}
	first, _, _ := strings.Cut(text, "\n")
	return doc || a.Matches(strings.TrimSpace(first)) || a.Matches(lineText([]byte(f.src), line))
}

// edits returns the candidate edits for the tokens [lo, hi) of one line, in
// priority order.
func (f *pyFile) edits(lo, hi int) []tokEdit {
	var by [tokPriorities][]tokEdit
	add := func(pr, from, to int, with string, delta int) {
		by[pr] = append(by[pr], tokEdit{from: from, to: to, with: with, op: tokOperators[pr], delta: delta})
	}
	for i := lo; i < hi; i++ {
		if f.frozen[i] || f.stmtOf[i] < 0 {
			continue
		}
		st := f.stmts[f.stmtOf[i]]
		t, text := f.toks[i], f.text(i)
		switch t.Kind {
		case pylex.TokenOp:
			switch text {
			case "<", "<=", ">", ">=":
				if f.text(st.first) == "while" || i > 0 && f.toks[i-1].Kind == pylex.TokenNumber && intLiteral(f.text(i-1)) || i+1 < len(f.toks) && f.toks[i+1].Kind == pylex.TokenNumber && intLiteral(f.text(i+1)) {
					add(tokBoundary, t.Off, t.End, tokBoundaryFlip[text], 0)
				} else {
					add(tokRelational, t.Off, t.End, tokInvertFlip[text], 0)
				}
			case "==":
				add(tokRelational, t.Off, t.End, "!=", 0)
			case "!=":
				add(tokRelational, t.Off, t.End, "==", 0)
			case "+", "-", "*", "/":
				if f.binary(st, i) && (text != "+" || !f.stringNext(st, i-1) && !f.stringNext(st, i+1)) {
					add(tokArithmetic, t.Off, t.End, tokArithmeticFlip[text], 0)
				}
			case "+=":
				if !f.stringNext(st, i+1) {
					add(tokIncrement, t.Off, t.End, "-=", 0)
				}
			case "-=":
				add(tokIncrement, t.Off, t.End, "+=", 0)
			}
		case pylex.TokenName:
			switch text {
			case "is":
				if f.is(st, i+1, "not") {
					add(tokRelational, t.Off, f.toks[i+1].End, "is", -1)
				} else {
					add(tokRelational, t.Off, t.End, "is not", 1)
				}
			case "not":
				if f.is(st, i+1, "in") {
					add(tokRelational, t.Off, f.toks[i+1].End, "in", -1)
				}
			case "in":
				if !f.forIn[i] && !f.is(st, i-1, "not") {
					add(tokRelational, t.Off, t.End, "not in", 1)
				}
			case "and":
				add(tokLogical, t.Off, t.End, "or", 0)
			case "or":
				add(tokLogical, t.Off, t.End, "and", 0)
			}
		}
	}
	if s := f.stmtOf[lo]; s >= 0 && f.stmts[s].first == lo && !f.frozen[lo] {
		st := f.stmts[s]
		switch f.text(lo) {
		case "if", "elif", "while":
			if e, ok := f.negate(st); ok {
				by[tokNegate] = append(by[tokNegate], e)
			}
		case "return":
			if e, ok := f.zeroReturn(st); ok {
				by[tokZeroReturn] = append(by[tokZeroReturn], e)
			}
		}
		if f.callStmt(st) {
			add(tokRemove, f.toks[st.first].Off, f.toks[st.end-1].End, "pass", 1-(st.end-st.first))
		}
	}
	var out []tokEdit
	for _, es := range by {
		out = append(out, es...)
	}
	return out
}

// binary reports whether the operator token i of st has an operand on each
// side, so it is binary: not a unary sign, not a star in a call or a target.
func (f *pyFile) binary(st pyStmt, i int) bool {
	if i-1 < st.first || i+1 >= st.end {
		return false
	}
	p, text := f.toks[i-1], f.text(i-1)
	switch p.Kind {
	case pylex.TokenNumber, pylex.TokenString:
		return true
	case pylex.TokenName:
		if i-1 == st.first && (text == "match" || text == "case") {
			return false
		}
		return !pyKeywords[text]
	case pylex.TokenOp:
		return text == ")" || text == "]" || text == "}"
	}
	return false
}

// stringNext reports whether token i of st is a string literal, which makes
// a '+' beside it a concatenation.
func (f *pyFile) stringNext(st pyStmt, i int) bool {
	return i >= st.first && i < st.end && f.toks[i].Kind == pylex.TokenString
}

// negate negates the condition of an if, elif or while header: a leading
// 'not' that covers the whole condition is dropped, anything else is wrapped
// in not (...).
func (f *pyFile) negate(st pyStmt) (tokEdit, bool) {
	c := f.colon(st, st.first+1)
	if c <= st.first+1 {
		return tokEdit{}, false
	}
	lo, hi := st.first+1, c
	whole := true // does a leading not cover the whole condition?
	for i := lo; i < hi; i++ {
		if f.depth[i] != 0 || f.toks[i].Kind != pylex.TokenName {
			continue
		}
		switch f.text(i) {
		case "lambda":
			return tokEdit{}, false // its colon was taken for the header's
		case "and", "or", "if", "else":
			whole = false
		}
	}
	op := tokOperators[tokNegate]
	if f.text(lo) == "not" && whole && lo+1 < hi {
		return tokEdit{from: f.toks[lo].Off, to: f.toks[lo+1].Off, op: op, delta: -1}, true
	}
	from, to := f.toks[lo].Off, f.toks[hi-1].End
	return tokEdit{from: from, to: to, with: "not (" + f.src[from:to] + ")", op: op, delta: 3}, true
}

// zeroReturn replaces a returned value by None, or a returned True or False
// by the other.
func (f *pyFile) zeroReturn(st pyStmt) (tokEdit, bool) {
	lo, hi := st.first+1, st.end
	if lo >= hi {
		return tokEdit{}, false
	}
	with := "None"
	if hi-lo == 1 {
		switch f.text(lo) {
		case "None":
			return tokEdit{}, false
		case "True":
			with = "False"
		case "False":
			with = "True"
		}
	}
	return tokEdit{from: f.toks[lo].Off, to: f.toks[hi-1].End, with: with, op: tokOperators[tokZeroReturn], delta: 1 - (hi - lo)}, true
}

// callStmt reports whether st is a call and nothing else (an expression
// statement such as self.items.append(x) or await client.close()), whose
// removal leaves the line's side effect undone.
func (f *pyFile) callStmt(st pyStmt) bool {
	i := st.first
	if f.text(i) == "await" {
		i++
	}
	if i >= st.end || f.toks[i].Kind != pylex.TokenName || pyKeywords[f.text(i)] {
		return false
	}
	call := false
	for i++; i < st.end; {
		switch text := f.text(i); {
		case text == "." && i+1 < st.end && f.toks[i+1].Kind == pylex.TokenName:
			i += 2
			call = false
		case (text == "(" || text == "[") && f.toks[i].Kind == pylex.TokenOp && f.match[i] > i:
			call = text == "("
			i = f.match[i] + 1
		default:
			return false
		}
	}
	return call
}

// statementsOn counts the statements with a token on line.
func (f *pyFile) statementsOn(line int) int {
	seen := map[int]bool{}
	for i, t := range f.toks {
		if t.Line == line && f.stmtOf[i] >= 0 {
			seen[f.stmtOf[i]] = true
		}
	}
	return len(seen)
}
