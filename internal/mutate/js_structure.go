package mutate

import (
	"errors"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan/jsts"
)

// jsWantOperand are keywords that, at the end of a line, leave their
// expression open, so the next line continues it.
var jsWantOperand = map[string]bool{
	"typeof": true, "void": true, "delete": true, "await": true, "new": true, "instanceof": true,
	"in": true, "of": true, "as": true, "satisfies": true, "extends": true, "keyof": true, "yield": true,
}

// jsInfix are keywords that, at the start of a line, continue the
// expression of the line before.
var jsInfix = map[string]bool{"instanceof": true, "in": true, "as": true, "satisfies": true}

// errJSTokenize is the error of a file that does not tokenize as JavaScript.
var errJSTokenize = errors.New("does not tokenize as JavaScript/TypeScript (unterminated string, template, regex or comment, or unbalanced brackets)")

// jsFile is a tokenized JS/TS source with what the operators need to know
// about each token: its bracket partner (a template head's is its tail), the
// innermost bracket around it and whether it is frozen (markup, template
// substitutions, generics, type declarations, decorators, function and
// class headers).
type jsFile struct {
	src    string
	jsx    bool
	toks   []jsts.Token
	match  []int
	parent []int
	frozen []bool
}

// jsBrackets pairs the brackets of toks (a template head with its tail) and
// finds the innermost one around each token; ok is false when they do not
// balance.
func jsBrackets(toks []jsts.Token) (match, parent []int, ok bool) {
	match, parent = make([]int, len(toks)), make([]int, len(toks))
	var open []int
	for i, t := range toks {
		match[i], parent[i] = -1, -1
		if len(open) > 0 {
			parent[i] = open[len(open)-1]
		}
		var want string // the opener t closes
		switch t.Kind {
		case jsts.KindTemplateHead:
			open = append(open, i)
			continue
		case jsts.KindTemplateMiddle:
			if len(open) == 0 || toks[open[len(open)-1]].Kind != jsts.KindTemplateHead {
				return nil, nil, false
			}
			continue
		case jsts.KindTemplateTail:
			want = "`"
		case jsts.KindPunct:
			switch t.Text {
			case "(", "[", "{":
				open = append(open, i)
				continue
			case ")":
				want = "("
			case "]":
				want = "["
			case "}":
				want = "{"
			default:
				continue
			}
		default:
			continue
		}
		if len(open) == 0 {
			return nil, nil, false
		}
		o := open[len(open)-1]
		if head := toks[o].Kind == jsts.KindTemplateHead; head != (want == "`") || !head && toks[o].Text != want {
			return nil, nil, false
		}
		open = open[:len(open)-1]
		match[o], match[i] = i, o
		parent[i] = parent[o]
	}
	return match, parent, len(open) == 0
}

// newJSFile tokenizes src and finds its brackets and frozen tokens. ts turns
// on TypeScript's generics; jsx lets the tokenizer read JSX.
func newJSFile(src string, ts, jsx bool) (*jsFile, error) {
	toks, ok := jsts.Tokenize(src, jsx)
	if !ok {
		return nil, errJSTokenize
	}
	match, parent, ok := jsBrackets(toks)
	if !ok {
		return nil, errJSTokenize
	}
	f := &jsFile{src: src, jsx: jsx, toks: toks, match: match, parent: parent, frozen: make([]bool, len(toks))}
	templates := 0 // open template heads: their substitutions are frozen
	for i, t := range toks {
		switch t.Kind {
		case jsts.KindTemplateHead:
			templates++
		case jsts.KindTemplateTail:
			templates--
		}
		f.frozen[i] = t.Markup || templates > 0
	}
	f.freezeDeclarations()
	if ts {
		for i, t := range toks {
			if t.Kind == jsts.KindPunct && t.Text == "<" && (!f.frozen[i] || t.Markup) {
				f.freezeGeneric(i)
			}
		}
	}
	return f, nil
}

// punct reports whether token i exists and is the punctuator s.
func (f *jsFile) punct(i int, s string) bool {
	return i >= 0 && i < len(f.toks) && f.toks[i].Kind == jsts.KindPunct && f.toks[i].Text == s
}

// ident reports whether token i exists and is an identifier.
func (f *jsFile) ident(i int) bool {
	return i >= 0 && i < len(f.toks) && f.toks[i].Kind == jsts.KindIdent
}

// keyword reports whether token i is the reserved word s in a keyword's
// place (not a property name after a dot).
func (f *jsFile) keyword(i int, s string) bool {
	return f.ident(i) && f.toks[i].Text == s && !f.punct(i-1, ".") && !f.punct(i-1, "?.")
}

// end is the offset just past token i.
func (f *jsFile) end(i int) int { return int(f.toks[i].Off) + len(f.toks[i].Text) }

// endLine is the line of token i's last byte (templates and JSX text span
// lines).
func (f *jsFile) endLine(i int) int { return f.toks[i].Line + strings.Count(f.toks[i].Text, "\n") }

// freezeRange freezes the tokens [from, to].
func (f *jsFile) freezeRange(from, to int) {
	for i := from; i <= to && i < len(f.toks); i++ {
		f.frozen[i] = true
	}
}

// freezeDeclarations freezes what is type or header, not code to mutate:
// TypeScript interface, type alias and declare statements, decorators, the
// parameter lists of functions, methods and arrows (defaults included) and
// class headers.
func (f *jsFile) freezeDeclarations() {
	for i, t := range f.toks {
		switch {
		case t.Kind == jsts.KindPunct && t.Text == "@" && f.ident(i+1):
			j := i + 1
			for f.punct(j+1, ".") && f.ident(j+2) {
				j += 2
			}
			if f.punct(j+1, "(") {
				j = f.match[j+1]
			}
			f.freezeRange(i, j)
		case f.keyword(i, "function"):
			if o := f.nextAtLevel(i, "("); o >= 0 {
				f.freezeRange(i, f.match[o])
			}
		case f.punct(i, "(") && f.match[i] > i && !f.control(i-1) && f.paramsBefore(i):
			f.freezeRange(i, f.match[i])
		case f.keyword(i, "class"):
			if o := f.nextAtLevel(i, "{"); o >= 0 {
				f.freezeRange(i, o)
			}
		case f.keyword(i, "interface") && f.ident(i+1) && f.declStart(i):
			if o := f.nextAtLevel(i, "{"); o >= 0 {
				f.freezeRange(i, f.match[o])
			}
		case f.keyword(i, "type") && f.ident(i+1) && (f.punct(i+2, "=") || f.punct(i+2, "<")) && f.declStart(i),
			f.keyword(i, "declare") && f.ident(i+1) && f.declStart(i):
			f.freezeRange(i, f.stmtEnd(i))
		}
	}
}

// control reports whether token i is a keyword whose parenthesised head
// precedes a block, as a method's parameters precede its body.
func (f *jsFile) control(i int) bool {
	for _, k := range []string{"if", "while", "for", "switch", "catch", "with"} {
		if f.keyword(i, k) {
			return true
		}
	}
	return false
}

// paramsBefore reports whether what follows the group the '(' at o opens
// makes it a parameter list: a body '{' (a method), '=>' (an arrow), or a
// TypeScript return type ending at one of them. A ':' after a call in a
// conditional's first branch (c ? f(a) : {}) is no return type.
func (f *jsFile) paramsBefore(o int) bool {
	m := f.match[o]
	if f.punct(m+1, "{") || f.punct(m+1, "=>") {
		return true
	}
	if !f.punct(m+1, ":") {
		return false
	}
	b := o - 1
	for f.ident(b) || f.punct(b, ".") || f.punct(b, "?.") {
		b--
	}
	if f.punct(b, "?") {
		return false
	}
	for k := m + 2; k < len(f.toks) && k < m+128; k++ {
		switch {
		case f.punct(k, "{") || f.punct(k, "=>"):
			return true
		case f.punct(k, ";") || f.punct(k, ",") || f.punct(k, "=") || f.match[k] >= 0 && f.match[k] < k:
			return false
		case f.match[k] > k:
			k = f.match[k]
		}
	}
	return false
}

// nextAtLevel returns the first punctuator s after token i inside the same
// brackets as i, before a ';' or a '{' (unless s is '{'); -1 if none.
func (f *jsFile) nextAtLevel(i int, s string) int {
	for k := i + 1; k < len(f.toks); k++ {
		if f.parent[k] != f.parent[i] {
			continue
		}
		if f.punct(k, s) {
			if f.match[k] < 0 {
				return -1
			}
			return k
		}
		if f.punct(k, ";") || f.punct(k, "{") {
			return -1
		}
	}
	return -1
}

// declStart reports whether token i starts a declaration: first in the file
// or a block, after a ';', after export, declare or default, or on a new line
// that does not continue the line before.
func (f *jsFile) declStart(i int) bool {
	if i == 0 {
		return true
	}
	if f.punct(i-1, ";") || f.punct(i-1, "{") || f.punct(i-1, "}") {
		return true
	}
	if f.keyword(i-1, "export") || f.keyword(i-1, "declare") || f.keyword(i-1, "default") {
		return true
	}
	return f.endLine(i-1) < f.toks[i].Line && !f.continues(i-1, i)
}

// continues reports whether token b, on a line after token a's, continues
// a's expression (JavaScript's automatic semicolon insertion would not end
// the statement between them): a leaves its expression open (an operator, an
// opening bracket, an operand keyword), or b can only continue one (a binary
// operator, '.', '(', '[', a template). JSX markup always continues.
func (f *jsFile) continues(a, b int) bool {
	ta, tb := f.toks[a], f.toks[b]
	if ta.Markup || tb.Markup {
		return true
	}
	switch ta.Kind {
	case jsts.KindPunct:
		switch ta.Text {
		case ")", "]", "}", "++", "--":
		default:
			return true
		}
	case jsts.KindIdent:
		if jsWantOperand[ta.Text] && !f.punct(a-1, ".") {
			return true
		}
	case jsts.KindTemplateHead, jsts.KindTemplateMiddle:
		return true
	}
	switch tb.Kind {
	case jsts.KindPunct:
		switch tb.Text {
		case "++", "--", "!", "~", "{", "}", ")", "]", ";", "@":
			return false
		}
		return true
	case jsts.KindIdent:
		return jsInfix[tb.Text]
	case jsts.KindTemplate, jsts.KindTemplateHead:
		return true
	}
	return false
}

// stmtEnd returns the last token of the expression or statement that starts
// at token from: up to a ';', a bracket closing one around it, or a line
// break the next line does not continue. It is from-1 when nothing is there.
func (f *jsFile) stmtEnd(from int) int {
	last := from - 1
	for k := from; k < len(f.toks); {
		t := f.toks[k]
		if f.punct(k, ";") || (f.match[k] >= 0 && f.match[k] < k) || t.Kind == jsts.KindTemplateMiddle {
			return last
		}
		end := k
		if f.match[k] > k {
			end = f.match[k]
		}
		last = end
		next := end + 1
		if next >= len(f.toks) || f.endLine(end) < f.toks[next].Line && !f.continues(end, next) {
			return last
		}
		k = next
	}
	return last
}

// freezeGeneric freezes the '<' at i and its closing '>' when what lies
// between reads as TypeScript type arguments or parameters (names, dots,
// commas, unions, bracketed types, nested angles), the way tsc tells
// Map<string, number> from a < b: an operator, a ';' or a closing bracket
// between them proves a comparison. A line may break only where a type list
// goes on (after '<' ',' '|' '&', or before '>' ',' '|' '&'). In TSX the
// '<' may be markup: the tokenizer took <T extends U> for an element until
// it gave up, leaving the '>' an operator that this freezes.
func (f *jsFile) freezeGeneric(i int) {
	angles := 1
	seen := []int{i}
	for k := i + 1; k < len(f.toks) && k < i+512; k++ {
		t := f.toks[k]
		if f.endLine(k-1) < t.Line && !f.typeListBreak(k-1, k) {
			return
		}
		switch t.Kind {
		case jsts.KindIdent, jsts.KindString, jsts.KindNumber, jsts.KindTemplate:
			continue
		case jsts.KindPunct:
		default:
			return
		}
		switch t.Text {
		case "(", "[", "{":
			if f.match[k] < k {
				return
			}
			k = f.match[k]
		case ".", ",", "|", "&", "=>", "=", "...", "?":
		case "<":
			angles++
			seen = append(seen, k)
		case ">", ">>", ">>>":
			angles -= len(t.Text)
			seen = append(seen, k)
		default:
			return
		}
		if angles < 0 {
			return
		}
		if angles == 0 {
			for _, s := range seen {
				f.frozen[s] = true
			}
			return
		}
	}
}

// typeListBreak reports whether a line break between tokens a and b can sit
// inside a type argument list.
func (f *jsFile) typeListBreak(a, b int) bool {
	for _, s := range []string{"<", ",", "|", "&"} {
		if f.punct(a, s) {
			return true
		}
	}
	for _, s := range []string{">", ">>", ">>>", ",", "|", "&"} {
		if f.punct(b, s) {
			return true
		}
	}
	return false
}

// lineRanges maps each line to the token range [lo, hi) of the tokens that
// start on it.
func (f *jsFile) lineRanges() map[int][2]int {
	out := map[int][2]int{}
	for i, t := range f.toks {
		if r, ok := out[t.Line]; ok {
			out[t.Line] = [2]int{r[0], i + 1}
		} else {
			out[t.Line] = [2]int{i, i + 1}
		}
	}
	return out
}

// stmtStart reports whether token lo, the first of its line, starts a
// statement: after ';', '{' or '}', after a case or default label, or after
// a line it does not continue.
func (f *jsFile) stmtStart(lo int) bool {
	if lo == 0 {
		return true
	}
	p := lo - 1
	if f.toks[p].Markup {
		return false
	}
	if f.punct(p, ";") || f.punct(p, "{") || f.punct(p, "}") {
		return true
	}
	if f.punct(p, ":") {
		first := p
		for first > 0 && f.toks[first-1].Line == f.toks[p].Line {
			first--
		}
		return (f.keyword(first, "case") || f.keyword(first, "default")) && f.parent[first] == f.parent[p]
	}
	return !f.continues(p, lo)
}
