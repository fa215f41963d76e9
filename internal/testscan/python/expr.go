package python

import "strings"

// pyKeywords are Python's hard keywords.
var pyKeywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
	"async": true, "await": true, "break": true, "class": true, "continue": true,
	"def": true, "del": true, "elif": true, "else": true, "except": true,
	"finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true,
	"not": true, "or": true, "pass": true, "raise": true, "return": true,
	"try": true, "while": true, "with": true, "yield": true,
}

func isOp(t token, text string) bool { return t.kind == tkOp && t.text == text }

func isOpener(t token) bool {
	return t.kind == tkOp && (t.text == "(" || t.text == "[" || t.text == "{")
}

func isCloser(t token) bool {
	return t.kind == tkOp && (t.text == ")" || t.text == "]" || t.text == "}")
}

// matchClose returns the index of the bracket closing the one at i, or the last
// index when it is never closed.
func matchClose(toks []token, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch {
		case isOpener(toks[j]):
			depth++
		case isCloser(toks[j]):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(toks) - 1
}

// matchOpen returns the index of the bracket opening the one closed at i, or -1.
func matchOpen(toks []token, i int) int {
	depth := 0
	for j := i; j >= 0; j-- {
		switch {
		case isCloser(toks[j]):
			depth++
		case isOpener(toks[j]):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// splitTop splits toks at the operator sep outside brackets.
func splitTop(toks []token, sep string) [][]token { return splitAt(toks, tkOp, sep) }

// splitAt splits toks at the tokens of kind and text outside brackets.
func splitAt(toks []token, kind tokKind, text string) [][]token {
	var out [][]token
	depth, start := 0, 0
	for i, t := range toks {
		switch {
		case isOpener(t):
			depth++
		case isCloser(t):
			if depth > 0 {
				depth--
			}
		case depth == 0 && t.kind == kind && t.text == text:
			out = append(out, toks[start:i])
			start = i + 1
		}
	}
	return append(out, toks[start:])
}

// callArg is one argument of a call: Name is set for keyword arguments.
type callArg struct {
	name string
	val  []token
}

// parseArgs splits the tokens between a call's parentheses into arguments,
// dropping a trailing comma.
func parseArgs(toks []token) []callArg {
	if len(toks) == 0 {
		return nil
	}
	parts := splitTop(toks, ",")
	out := make([]callArg, 0, len(parts))
	for _, p := range parts {
		if len(p) == 0 {
			continue
		}
		if len(p) >= 2 && p[0].kind == tkName && isOp(p[1], "=") {
			out = append(out, callArg{name: p[0].text, val: p[2:]})
			continue
		}
		out = append(out, callArg{val: p})
	}
	return out
}

// positional returns the i-th positional argument, nil when absent.
func positional(args []callArg, i int) []token {
	n := 0
	for _, a := range args {
		if a.name != "" {
			continue
		}
		if n == i {
			return a.val
		}
		n++
	}
	return nil
}

// keyword returns the value of the keyword argument name, nil when absent.
func keyword(args []callArg, name string) []token {
	for _, a := range args {
		if a.name == name {
			return a.val
		}
	}
	return nil
}

// argOr returns the keyword argument name, else the i-th positional one.
func argOr(args []callArg, i int, name string) []token {
	if v := keyword(args, name); v != nil {
		return v
	}
	return positional(args, i)
}

// dotted returns "a.b.c" when toks are exactly a dotted name, else "".
func dotted(toks []token) string {
	if len(toks) == 0 || len(toks)%2 == 0 {
		return ""
	}
	var b strings.Builder
	for i, t := range toks {
		if i%2 == 0 {
			if t.kind != tkName {
				return ""
			}
			b.WriteString(t.text)
		} else {
			if !isOp(t, ".") {
				return ""
			}
			b.WriteByte('.')
		}
	}
	return b.String()
}

// call describes `callee(args)` where callee is a dotted name.
type call struct {
	name  string // dotted callee
	args  []callArg
	inner []token // tokens between the parentheses
	end   int     // index of ')' in the scanned slice
}

// asCall parses toks as exactly one call of a dotted name (or, with bare set, a
// dotted name without parentheses).
func asCall(toks []token) (call, bool) {
	for i, t := range toks {
		if isOp(t, "(") {
			name := dotted(toks[:i])
			if name == "" {
				return call{}, false
			}
			close := matchClose(toks, i)
			if close != len(toks)-1 {
				return call{}, false
			}
			inner := toks[i+1:]
			if close > i && isOp(toks[close], ")") {
				inner = toks[i+1 : close]
			}
			return call{name: name, args: parseArgs(inner), inner: inner, end: close}, true
		}
	}
	return call{}, false
}

// receiverStart walks back from the '.' at dot over a primary expression (names,
// attribute access, calls and subscripts) and returns its first index.
func receiverStart(toks []token, dot int) int {
	i := dot - 1
	for i >= 0 {
		t := toks[i]
		switch {
		case isCloser(t):
			o := matchOpen(toks, i)
			if o < 0 {
				return i + 1
			}
			i = o - 1
			continue
		case t.kind == tkName && !pyKeywords[t.text] || t.kind == tkString || t.kind == tkNumber:
			if i > 0 && isOp(toks[i-1], ".") {
				i -= 2
				continue
			}
			return i
		}
		return i + 1
	}
	return 0
}

// stripParens removes parentheses that wrap all of toks, unless they make a
// tuple.
func stripParens(toks []token) []token {
	for len(toks) >= 2 && isOp(toks[0], "(") && matchClose(toks, 0) == len(toks)-1 && isOp(toks[len(toks)-1], ")") {
		inner := toks[1 : len(toks)-1]
		if len(inner) == 0 || len(splitTop(inner, ",")) > 1 {
			return toks
		}
		toks = inner
	}
	return toks
}

// canonText is the spelling of a token that formatting does not change.
func canonText(t token) string {
	switch t.kind {
	case tkString:
		return parseStringToken(t.text).canonical()
	case tkNumber:
		return strings.ToLower(strings.ReplaceAll(t.text, "_", ""))
	}
	return t.text
}

// normalize returns the canonical texts of toks with the trailing commas that
// formatters add or remove dropped: a comma before a closing bracket goes unless
// it is what makes a one-element tuple.
func normalize(toks []token) []token {
	return normalizeInto(make([]token, 0, len(toks)), toks)
}

// normalizeInto is normalize appending to dst, so callers can reuse a buffer.
func normalizeInto(out, toks []token) []token {
	type open struct {
		tupleish bool
		commas   int
	}
	var stackBuf [16]open
	stack := stackBuf[:0]
	for i, t := range toks {
		switch {
		case isOpener(t):
			tupleish := false
			prevCallable := i > 0 && (toks[i-1].kind == tkName && !pyKeywords[toks[i-1].text] || isCloser(toks[i-1]) || toks[i-1].kind == tkString)
			switch t.text {
			case "(":
				tupleish = !prevCallable
			case "[":
				tupleish = prevCallable
			}
			stack = append(stack, open{tupleish: tupleish})
		case isCloser(t):
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case isOp(t, ","):
			if len(stack) > 0 {
				top := &stack[len(stack)-1]
				top.commas++
				if i+1 < len(toks) && isCloser(toks[i+1]) && (!top.tupleish || top.commas >= 2) {
					continue
				}
			}
		}
		c := t
		c.text = canonText(t)
		out = append(out, c)
	}
	return out
}

func wordy(t token) bool { return t.kind == tkName || t.kind == tkNumber || t.kind == tkString }

// compact renders toks as normalized text: canonical token spellings, joined
// without spaces except between two words and after commas, so that any
// reformatting of the same expression gives the same text.
func compact(toks []token) string {
	toks = normalize(stripParens(toks))
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && (wordy(t) && wordy(toks[i-1]) || isOp(toks[i-1], ",")) {
			b.WriteByte(' ')
		}
		b.WriteString(t.text)
	}
	return b.String()
}

// stripStatementParens removes the redundant parentheses formatters add or drop
// around a whole operand of a statement (return (x), x = (a + b), assert (c),
// if (d):, for x in (y):), so that fingerprints survive reformatting.
func stripStatementParens(toks []token) []token {
	if len(toks) < 3 {
		return toks
	}
	first := toks[0].text
	var starts []int
	switch first {
	case "return", "assert", "if", "elif", "while", "del", "yield", "await":
		starts = append(starts, 1)
	}
	depth := 0
	for i, t := range toks {
		switch {
		case isOpener(t):
			depth++
		case isCloser(t):
			if depth > 0 {
				depth--
			}
		case depth == 0 && t.kind == tkOp && (t.text == "=" || (len(t.text) >= 2 && t.text[len(t.text)-1] == '=' && t.text != "==" && t.text != "!=" && t.text != "<=" && t.text != ">=")):
			starts = append(starts, i+1)
		case depth == 0 && first == "for" && t.kind == tkName && t.text == "in":
			starts = append(starts, i+1)
		case depth == 0 && first == "assert" && isOp(t, ","):
			starts = append(starts, i+1)
		}
	}
	if len(starts) == 0 {
		return toks
	}
	drop := map[int]bool{}
	for _, k := range starts {
		for k < len(toks) && isOp(toks[k], "(") {
			c := matchClose(toks, k)
			if !isOp(toks[c], ")") || c == k+1 {
				break
			}
			if c != len(toks)-1 && !(first == "assert" && isOp(toks[c+1], ",")) {
				break
			}
			if len(splitTop(toks[k+1:c], ",")) > 1 || (len(toks[k+1:c]) > 0 && toks[k+1].text == "yield") {
				break
			}
			drop[k], drop[c] = true, true
			k++
		}
	}
	if len(drop) == 0 {
		return toks
	}
	out := make([]token, 0, len(toks)-len(drop))
	for i, t := range toks {
		if !drop[i] {
			out = append(out, t)
		}
	}
	return out
}
