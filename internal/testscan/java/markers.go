package java

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// suppressions finds @SuppressWarnings/@SuppressFBWarnings anywhere (types,
// members, locals), NOPMD/NOSONAR/CHECKSTYLE:OFF/noinspection comments, and empty
// catch blocks. In the same passes it finds the placeholders
// (File.Placeholders): the comments that start with TODO, FIXME or XXX, then
// the throw statements that say the code is not written (placeholderThrow).
func suppressions(toks []token, match []int, comments []comment) (out, placeholders []testscan.Marker) {
	var throws []testscan.Marker
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		switch {
		case t.Kind == tkIdent && t.Text == "throw" && toks[i+1].Text == "new":
			if text, ok := placeholderThrow(toks, match, i); ok {
				throws = append(throws, testscan.Marker{Line: t.Line, Kind: "not-implemented", Text: text})
			}
		case t.Kind == tkPunct && t.Text == "@" && toks[i+1].Kind == tkIdent:
			j, name := i+1, ""
			for j < len(toks) && toks[j].Kind == tkIdent {
				name = toks[j].Text
				if j+2 < len(toks) && toks[j+1].Text == "." && toks[j+2].Kind == tkIdent {
					j += 2
					continue
				}
				break
			}
			if name != "SuppressWarnings" && name != "SuppressFBWarnings" {
				continue
			}
			end := j + 1
			if end < len(toks) && toks[end].Text == "(" && match[end] > end {
				end = match[end] + 1
			}
			out = append(out, testscan.Marker{Line: t.Line, Kind: "nolint", Text: name + joinTokens(toks[j+1:end])})
		case t.Kind == tkIdent && t.Text == "catch" && toks[i+1].Text == "(" && match[i+1] > i:
			open := match[i+1] + 1
			if open+1 < len(toks) && toks[open].Text == "{" && toks[open+1].Text == "}" && toks[open].Kind == tkPunct {
				out = append(out, testscan.Marker{Line: t.Line, Kind: "empty-catch", Text: "catch"})
			}
		}
	}
	for _, c := range comments {
		// Like PMD and Checkstyle, only line comments carry suppression markers.
		if !c.block && suppressionComment(c.text) {
			out = append(out, testscan.Marker{Line: c.line, Kind: "nolint", Text: c.text})
		}
		if text, ok := testscan.TodoComment(c.text); ok {
			placeholders = append(placeholders, testscan.Marker{Line: c.line, Kind: "todo-comment", Text: text})
		}
	}
	sortMarkers(out)
	if len(placeholders) == 0 {
		return out, throws
	}
	return out, append(placeholders, throws...)
}

// placeholderThrow reads `throw new X("...")` at i when its message, the
// string literal (or text block) that starts its first argument, says the
// code is not written (testscan.PlaceholderMessage): any exception class,
// qualified or not. `throw new UnsupportedOperationException()` and
// UnsupportedOperationException("remove") are how an immutable type declines
// an operation, not placeholders. It returns the statement's normalized text.
func placeholderThrow(toks []token, match []int, i int) (string, bool) {
	j := i + 2
	if j >= len(toks) || toks[j].Kind != tkIdent {
		return "", false
	}
	for j+2 < len(toks) && toks[j+1].Text == "." && toks[j+2].Kind == tkIdent {
		j += 2
	}
	open := j + 1
	if open+1 >= len(toks) || toks[open].Text != "(" || match[open] <= open+1 {
		return "", false
	}
	if toks[open+1].Kind != tkString || !testscan.PlaceholderMessage(clex.Unquote(toks[open+1].Text)) {
		return "", false
	}
	return oneLine(joinTokens(toks[i : match[open]+1])), true
}

// oneLine folds the white space of a text that spans lines (a text block)
// into single spaces, so that reindenting it keeps the text.
func oneLine(s string) string {
	if strings.IndexByte(s, '\n') < 0 {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// suppressionComment reports whether a comment silences PMD, Sonar, Checkstyle or
// IntelliJ inspections.
func suppressionComment(text string) bool {
	upper := strings.ToUpper(text)
	switch {
	case strings.Contains(text, "NOPMD"), strings.Contains(text, "NOSONAR"):
		return true
	case strings.HasPrefix(upper, "CHECKSTYLE") && (strings.Contains(upper, "OFF") || strings.Contains(upper, "SUPPRESS") || strings.Contains(upper, "IGNORE")):
		return true
	case strings.HasPrefix(text, "noinspection"):
		return true
	}
	return false
}

// comparisons finds literals that code compares against: operands of == and != in
// if/while conditions, switch case labels, and the literal side of equals calls.
func comparisons(toks []token, match []int) []testscan.Marker {
	inCond := conditionMask(toks, match)
	var out []testscan.Marker
	reported := map[int]bool{}
	report := func(k int) {
		if k < 0 || k >= len(toks) || reported[k] {
			return
		}
		text := toks[k].Text
		if k > 0 && toks[k].Kind == tkNumber && toks[k-1].Text == "-" {
			text = "-" + text
		}
		reported[k] = true
		if trivialLiteral(text) {
			return
		}
		out = append(out, testscan.Marker{Line: toks[k].Line, Kind: "literal", Text: text})
	}
	for i, t := range toks {
		switch {
		case t.Kind == tkPunct && (t.Text == "==" || t.Text == "!=") && inCond[i]:
			if i > 0 && isLiteralTok(toks[i-1]) && (i < 2 || toks[i-2].Text != ".") {
				report(i - 1)
			}
			r := i + 1
			if r < len(toks) && toks[r].Text == "-" {
				r++
			}
			if r < len(toks) && isLiteralTok(toks[r]) && (r+1 >= len(toks) || toks[r+1].Text != ".") {
				report(r)
			}
		case t.Kind == tkIdent && t.Text == "case":
			for j := i + 1; j < len(toks) && j < i+64; j++ {
				if toks[j].Text == ":" || toks[j].Text == "->" || toks[j].Text == ";" || toks[j].Text == "{" {
					break
				}
				if isLiteralTok(toks[j]) && toks[j].Kind != tkIdent {
					report(j)
				}
			}
		case t.Kind == tkIdent && (t.Text == "equals" || t.Text == "equalsIgnoreCase") && i+1 < len(toks) && toks[i+1].Text == "(" && match[i+1] > i:
			if i >= 2 && toks[i-1].Text == "." && isLiteralTok(toks[i-2]) {
				report(i - 2)
			}
			for _, arg := range splitArgs(toks[i+2 : match[i+1]]) {
				if isLiteral(arg) {
					report(indexOf(toks, arg[len(arg)-1], i))
				}
			}
		}
	}
	sortMarkers(out)
	return out
}

// indexOf finds the index of a token that is known to follow from.
func indexOf(toks []token, t token, from int) int {
	for k := from; k < len(toks) && k < from+8; k++ {
		if toks[k] == t {
			return k
		}
	}
	return -1
}

// conditionMask marks the tokens inside if and while conditions. A difference array
// keeps it linear however deeply conditions nest.
func conditionMask(toks []token, match []int) []bool {
	diff := make([]int, len(toks)+1)
	for i, t := range toks {
		if t.Kind == tkIdent && (t.Text == "if" || t.Text == "while") && i+1 < len(toks) && toks[i+1].Text == "(" {
			if c := match[i+1]; c > i+1 {
				diff[i+2]++
				diff[c]--
			}
		}
	}
	mask := make([]bool, len(toks))
	n := 0
	for i := range toks {
		n += diff[i]
		mask[i] = n > 0
	}
	return mask
}

func isLiteralTok(t token) bool {
	return t.Kind == tkString || t.Kind == tkChar || t.Kind == tkNumber
}

// trivialLiteral reports literals too common to mean anything.
func trivialLiteral(text string) bool {
	switch text {
	case "0", "1", "-1", `""`, "true", "false", "null", "0L", "1L", "0.0":
		return true
	}
	return false
}
