package mutate

import (
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan/jsts"
)

func init() { register(jsMutator{}) }

// jsMutator makes the mutants of JavaScript and TypeScript files. It reads
// the source as tokens (testscan's JS/TS tokenizer), so an operator inside a
// string, a template literal (substitutions included), a regex literal, a
// comment or JSX markup is never one it touches. Without a parser it stays
// on the safe side: TypeScript's generic brackets, type declarations,
// decorators and function headers are frozen, and every mutant is tokenized
// again and must come out with the token count the edit implies.
type jsMutator struct{}

// Name is the language's name.
func (jsMutator) Name() string { return "javascript" }

// jsExtensions are the files the mutator reads; the value says whether the
// file is TypeScript.
var jsExtensions = map[string]bool{
	".js": false, ".jsx": false, ".mjs": false, ".cjs": false,
	".ts": true, ".tsx": true, ".mts": true, ".cts": true,
}

// jsNoJSX are the extensions whose files cannot hold JSX, where a '<' after
// '=' is a TypeScript type assertion or generic, never an element.
var jsNoJSX = map[string]bool{".ts": true, ".mts": true, ".cts": true}

// Handles reports a JavaScript or TypeScript file, declaration files
// (.d.ts) left out: they hold no code a test could run, so their mutants
// would all survive.
func (jsMutator) Handles(p string) bool {
	e := ext(p)
	ts, ok := jsExtensions[e]
	declaration := ts && strings.HasSuffix(strings.ToLower(p[:len(p)-len(e)]), ".d")
	return ok && !declaration
}

// jsArid are the lines whose breakage no reviewer would act on: logging
// (console, logger, debug), a simple field return, imports and re-exports,
// type-only declarations. Each is matched against the code of a line (from
// its first token to its last, comments left out) and against the line that
// opens the call or array the line sits in, so every line of a multi-line
// console.log(...) is arid. A throw that wraps the error its catch caught is
// arid too; throwsCaught finds those.
var jsArid = []*lazyre.Regexp{
	lazyre.New(`^console\.`),
	lazyre.New(`^(this\.)?(logger|_logger|LOGGER)\.`),
	lazyre.New(`^(this\.)?(log|_log|LOG)\.(trace|debug|info|warn|warning|error|fatal)\(`),
	lazyre.New(`^debug\(`),
	// A project's own logger, however spelled: a call named for a level.
	lazyre.New(`^([\w$.]+\.)?(trace|debug|info|warn|log)\(`),
	lazyre.New(`^return\s+this\.[\w$#]+\s*;?$`),
	lazyre.New(`^import(\s+[\w${*'"]|\s*[{*'"])`),
	lazyre.New(`^export\b.*\bfrom\s*['"]`),
	lazyre.New(`^(export\s+)?(declare\s+)?(type\s+[\w$]+\s*[=<]|interface\s)`),
	lazyre.New(`^declare\s`),
}

// jsKeywords are the reserved words that cannot end an operand (a '-' or
// '*' after one is unary or a generator star) nor start a call statement.
var jsKeywords = map[string]bool{
	"break": true, "case": true, "catch": true, "class": true, "const": true, "continue": true,
	"debugger": true, "default": true, "delete": true, "do": true, "else": true, "export": true,
	"extends": true, "finally": true, "for": true, "function": true, "if": true, "import": true,
	"in": true, "instanceof": true, "new": true, "return": true, "switch": true, "throw": true,
	"try": true, "typeof": true, "var": true, "void": true, "while": true, "with": true,
	"yield": true, "let": true, "static": true, "await": true, "async": true, "of": true,
	"as": true, "satisfies": true, "keyof": true,
}

// Mutants returns at most one mutant per line of lines, in line order.
func (jsMutator) Mutants(p string, src []byte, lines []int, arid *Arid) ([]Mutant, error) {
	e := ext(p)
	f, err := newJSFile(string(src), jsExtensions[e], !jsNoJSX[e])
	if err != nil {
		return nil, fmt.Errorf("mutate %s: %w", p, err)
	}
	ranges := f.lineRanges()
	var out []Mutant
	for _, l := range sortedLines(lines) {
		r, ok := ranges[l]
		if !ok || f.arid(r[0], l, arid, ranges) {
			continue
		}
		if m, ok := firstValid(p, src, l, f.edits(r[0], r[1], l), len(f.toks), f.valid); ok {
			out = append(out, m)
		}
	}
	return out, nil
}

// valid reports whether a mutated source still tokenizes, with balanced
// brackets and ntoks tokens.
func (f *jsFile) valid(mut []byte, ntoks int) bool {
	toks, ok := jsts.Tokenize(string(mut), f.jsx)
	if !ok || len(toks) != ntoks {
		return false
	}
	_, _, ok = jsBrackets(toks)
	return ok
}

// code is the source of the tokens of a line range, comments around them
// left out.
func (f *jsFile) code(r [2]int) string {
	return f.src[f.toks[r[0]].Off:f.end(r[1]-1)]
}

// arid reports whether line (whose first token is lo) is one jsArid, the
// configuration or throwsCaught leaves alone, judged on the line and on
// the line opening the outermost call or array it sits in.
func (f *jsFile) arid(lo, line int, a *Arid, ranges map[int][2]int) bool {
	outer := lo
	for p := f.parent[outer]; p >= 0 && (f.punct(p, "(") || f.punct(p, "[")); p = f.parent[p] {
		outer = p
	}
	if f.severalStatements(ranges[line]) {
		// `console.log(x); return a > b`: the line holds more than the
		// arid statement, and its logic keeps its mutant.
		return a.Matches(lineText([]byte(f.src), line)) || f.throwsCaught(lo)
	}
	texts := []string{f.code(ranges[line])}
	if ol := f.toks[outer].Line; ol != line {
		texts = append(texts, f.code(ranges[ol]))
	}
	for _, text := range texts {
		for _, re := range jsArid {
			if re.MatchString(text) {
				return true
			}
		}
		if a.Matches(text) {
			return true
		}
	}
	return a.Matches(lineText([]byte(f.src), line)) || f.throwsCaught(lo)
}

// throwsCaught reports whether token lo starts a throw of (an error
// wrapping) the error an enclosing catch clause caught: catch (err) { ...
// throw new AppError('x', { cause: err }) }.
func (f *jsFile) throwsCaught(lo int) bool {
	if !f.keyword(lo, "throw") {
		return false
	}
	end := f.stmtEnd(lo + 1)
	for p := f.parent[lo]; p >= 0; p = f.parent[p] {
		if !f.punct(p, "{") || !f.punct(p-1, ")") {
			continue
		}
		o := f.match[p-1]
		if !f.keyword(o-1, "catch") || !f.ident(o+1) {
			continue
		}
		name := f.toks[o+1].Text
		for k := lo + 1; k <= end; k++ {
			if f.ident(k) && f.toks[k].Text == name && !f.punct(k-1, ".") {
				return true
			}
		}
	}
	return false
}

// jsFlip are the one-token swaps of the boundary, relational, logical and
// increment operators, with each one's priority.
var jsFlip = map[string]struct {
	with string
	pr   int
}{
	"<": {"<=", tokBoundary}, "<=": {"<", tokBoundary}, ">": {">=", tokBoundary}, ">=": {">", tokBoundary},
	"===": {"!==", tokRelational}, "!==": {"===", tokRelational}, "==": {"!=", tokRelational}, "!=": {"==", tokRelational},
	"&&": {"||", tokLogical}, "||": {"&&", tokLogical},
	"++": {"--", tokIncrement}, "--": {"++", tokIncrement},
}

// edits returns the candidate edits for the tokens [lo, hi) of line, in
// priority order.
func (f *jsFile) edits(lo, hi, line int) []tokEdit {
	var by [tokPriorities][]tokEdit
	add := func(pr, from, to int, with string, delta int) {
		by[pr] = append(by[pr], tokEdit{from: from, to: to, with: with, op: tokOperators[pr], delta: delta})
	}
	for i := lo; i < hi; i++ {
		if f.frozen[i] {
			continue
		}
		t := f.toks[i]
		from, to := int(t.Off), f.end(i)
		switch {
		case t.Kind == jsts.KindPunct:
			if fl, ok := jsFlip[t.Text]; ok && fl.pr == tokBoundary && f.binary(i) && !f.besideInt(i) {
				add(tokRelational, from, to, tokInvertFlip[t.Text], 0)
			} else if ok && (fl.pr != tokBoundary || f.binary(i)) {
				add(fl.pr, from, to, fl.with, 0)
			} else if w, ok := tokArithmeticFlip[t.Text]; ok && f.binary(i) && (t.Text != "+" || !f.stringBeside(i)) {
				add(tokArithmetic, from, to, w, 0)
			}
		case (f.keyword(i, "if") || f.keyword(i, "while")) && len(by[tokNegate]) == 0:
			if e, ok := f.negate(i, line); ok {
				by[tokNegate] = append(by[tokNegate], e)
			}
		case f.keyword(i, "return") && len(by[tokZeroReturn]) == 0:
			if e, ok := f.zeroReturn(i); ok {
				by[tokZeroReturn] = append(by[tokZeroReturn], e)
			}
		}
	}
	if !f.frozen[lo] {
		if e, ok := f.removeCall(lo); ok {
			by[tokRemove] = append(by[tokRemove], e)
		}
	}
	var out []tokEdit
	for _, es := range by {
		out = append(out, es...)
	}
	return out
}

// operandEnd reports whether token i can end an operand, so that an
// operator after it is binary.
func (f *jsFile) operandEnd(i int) bool {
	t := f.toks[i]
	if t.Markup {
		return false
	}
	switch t.Kind {
	case jsts.KindIdent:
		return !jsKeywords[t.Text] || f.punct(i-1, ".") || f.punct(i-1, "?.")
	case jsts.KindNumber, jsts.KindString, jsts.KindTemplate, jsts.KindTemplateTail, jsts.KindRegex:
		return true
	case jsts.KindPunct:
		return t.Text == ")" || t.Text == "]"
	}
	return false
}

// binary reports whether the operator token i has an operand on each side:
// not a unary sign, not a generator star.
func (f *jsFile) binary(i int) bool {
	return i > 0 && i+1 < len(f.toks) && f.operandEnd(i-1) && !f.toks[i+1].Markup
}

// stringBeside reports whether a string or template literal is an operand
// of the '+' at i, which makes it a concatenation.
func (f *jsFile) stringBeside(i int) bool {
	switch f.toks[i-1].Kind {
	case jsts.KindString, jsts.KindTemplate, jsts.KindTemplateTail:
		return true
	}
	switch f.toks[i+1].Kind {
	case jsts.KindString, jsts.KindTemplate, jsts.KindTemplateHead:
		return true
	}
	return false
}

// negate negates the parenthesised condition of the if or while at i when
// it closes on line: a leading '!' over a single operand is dropped,
// anything else becomes !(...).
func (f *jsFile) negate(i, line int) (tokEdit, bool) {
	o := i + 1
	if !f.punct(o, "(") || f.match[o] <= o+1 || f.toks[f.match[o]].Line != line {
		return tokEdit{}, false
	}
	lo, hi := o+1, f.match[o]-1
	op := tokOperators[tokNegate]
	if f.punct(lo, "!") && f.singleOperand(lo+1, hi) {
		return tokEdit{from: int(f.toks[lo].Off), to: f.end(lo), op: op, delta: -1}, true
	}
	from, to := int(f.toks[lo].Off), f.end(hi)
	return tokEdit{from: from, to: to, with: "!(" + f.src[from:to] + ")", op: op, delta: 3}, true
}

// singleOperand reports whether the tokens [lo, hi] are one operand (a
// name, a literal, a member chain, calls, a bracketed group, under prefix
// '!'), which a '!' before them negates whole.
func (f *jsFile) singleOperand(lo, hi int) bool {
	if lo > hi {
		return false
	}
	for k := lo; k <= hi; k++ {
		t := f.toks[k]
		switch t.Kind {
		case jsts.KindIdent:
			if jsKeywords[t.Text] && !f.punct(k-1, ".") && !f.punct(k-1, "?.") {
				return false
			}
		case jsts.KindNumber, jsts.KindString, jsts.KindTemplate, jsts.KindRegex:
		case jsts.KindTemplateHead:
			k = f.match[k]
		case jsts.KindPunct:
			switch t.Text {
			case ".", "?.", "!":
			case "(", "[":
				k = f.match[k]
			default:
				return false
			}
		default:
			return false
		}
	}
	return true
}

// zeroReturn replaces the value the return at r returns by undefined, or a
// returned true or false by the other.
func (f *jsFile) zeroReturn(r int) (tokEdit, bool) {
	lo := r + 1
	if lo >= len(f.toks) || f.toks[lo].Line > f.endLine(r) || f.punct(lo, ";") || f.match[lo] >= 0 && f.match[lo] < lo {
		return tokEdit{}, false // return alone (a line break after return ends it)
	}
	hi := f.stmtEnd(lo)
	if hi < lo {
		return tokEdit{}, false
	}
	with := "undefined"
	switch text := f.toks[lo].Text; {
	case hi == lo+2 && text == "this" && f.punct(lo+1, ".") && f.ident(hi):
		return tokEdit{}, false // a simple field return, arid
	case hi == lo && (text == "undefined" || text == "null"):
		return tokEdit{}, false
	case hi == lo+1 && text == "void" && f.toks[hi].Text == "0":
		return tokEdit{}, false
	case hi == lo && text == "true":
		with = "false"
	case hi == lo && text == "false":
		with = "true"
	}
	return tokEdit{from: int(f.toks[lo].Off), to: f.end(hi), with: with, op: tokOperators[tokZeroReturn], delta: 1 - (hi - lo + 1)}, true
}

// removeCall removes the call statement that starts at token lo (foo(x);,
// this.items.push(x), await client.close();), keeping its ';' or putting
// one in its place, so that an empty statement stands where it stood.
func (f *jsFile) removeCall(lo int) (tokEdit, bool) {
	if !f.stmtStart(lo) {
		return tokEdit{}, false
	}
	i := lo
	if f.keyword(i, "await") {
		i++
	}
	if !f.ident(i) || jsKeywords[f.toks[i].Text] {
		return tokEdit{}, false
	}
	k, call := i+1, false
chain:
	for k < len(f.toks) {
		switch {
		case (f.punct(k, ".") || f.punct(k, "?.")) && f.ident(k+1):
			k, call = k+2, false
		case f.punct(k, "?.") && (f.punct(k+1, "(") || f.punct(k+1, "[")):
			k++
		case (f.punct(k, "(") || f.punct(k, "[")) && f.match[k] > k:
			call = f.toks[k].Text == "("
			k = f.match[k] + 1
		default:
			break chain
		}
	}
	if !call {
		return tokEdit{}, false
	}
	last, op := k-1, tokOperators[tokRemove]
	from, to, n := int(f.toks[lo].Off), f.end(last), last-lo+1
	switch {
	case f.punct(k, ";"):
		return tokEdit{from: from, to: to, op: op, delta: -n}, true
	case k >= len(f.toks) || f.punct(k, "}") || f.endLine(last) < f.toks[k].Line && !f.continues(last, k):
		return tokEdit{from: from, to: to, with: ";", op: op, delta: 1 - n}, true
	}
	return tokEdit{}, false
}

// severalStatements reports whether the tokens [r[0], r[1]) hold a ';'
// that ends a statement before the line's last token (one outside a for
// header's parentheses).
func (f *jsFile) severalStatements(r [2]int) bool {
	for i := r[0]; i < r[1]-1; i++ {
		if f.punct(i, ";") && (f.parent[i] < 0 || !f.punct(f.parent[i], "(")) {
			return true
		}
	}
	return false
}

// besideInt reports whether the token before or after i is an integer
// literal, or i is in a loop's header (a loop bound keeps its boundary
// mutant: off by one).
func (f *jsFile) besideInt(i int) bool {
	if p := f.parent[i]; p > 0 && f.punct(p, "(") && (f.keyword(p-1, "for") || f.keyword(p-1, "while")) {
		return true
	}
	for _, k := range []int{i - 1, i + 1} {
		if k >= 0 && k < len(f.toks) && f.toks[k].Kind == jsts.KindNumber && intLiteral(f.toks[k].Text) {
			return true
		}
	}
	return false
}
