package rust

import (
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// maxStatement bounds how far back a statement is read, keeping hostile input linear.
const maxStatement = 256

// suppressions finds #[allow(..)]/#[expect(..)] and #![allow(..)] attributes
// (also inside cfg_attr), `let _ = call();` and `_ = call();` that discard a
// result, and `call().ok();` statements that swallow an error. In the same
// pass it adds to placeholders the macro calls that stand in for code not
// written (see placeholderMacro), in source order.
func suppressions(toks []token, match []int, placeholders []testscan.Marker) ([]testscan.Marker, []testscan.Marker) {
	var out []testscan.Marker
	stmtStart := []int{0} // per open brace: where the current statement began
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.Kind == tkPunct {
			switch t.Text {
			case "{":
				stmtStart = append(stmtStart, i+1)
			case "}":
				if len(stmtStart) > 1 {
					stmtStart = stmtStart[:len(stmtStart)-1]
				}
				stmtStart[len(stmtStart)-1] = i + 1
			case ";":
				stmtStart[len(stmtStart)-1] = i + 1
			case "#":
				out = append(out, lintAttr(toks, match, i)...)
			}
			continue
		}
		start := stmtStart[len(stmtStart)-1]
		switch {
		case t.Kind == tkIdent && i+1 < len(toks) && toks[i+1].Text == "!" && (t.Text == "todo" || t.Text == "unimplemented" || t.Text == "panic"):
			if text, ok := placeholderMacro(toks, match, i); ok {
				placeholders = append(placeholders, testscan.Marker{Line: t.Line, Kind: "not-implemented", Text: text})
			}
		case t.Text == "_" && t.Kind == tkIdent && i+1 < len(toks) && toks[i+1].Text == "=" &&
			(i == start || i == start+1 && toks[start].Text == "let"):
			end := statementEnd(toks, match, i+2)
			if expr := toks[i+2 : end]; fallible(expr) {
				prefix := "_="
				if i > start {
					prefix = "let _="
				}
				out = append(out, testscan.Marker{Line: t.Line, Kind: "discarded-error", Text: prefix + joinTokens(expr)})
			}
		case t.Text == "ok" && t.Kind == tkIdent && i >= 2 && i+3 < len(toks) && toks[i-1].Text == "." &&
			toks[i+1].Text == "(" && toks[i+2].Text == ")" && toks[i+3].Text == ";" && closesCall(toks[i-2]):
			from := max(start, i-maxStatement)
			stmt := toks[from : i+3]
			if len(stmt) > 0 && stmt[0].Text != "let" && stmt[0].Text != "return" && !assigns(stmt) {
				out = append(out, testscan.Marker{Line: t.Line, Kind: "swallowed-error", Text: joinTokens(stmt)})
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Line < out[b].Line })
	return out, placeholders
}

// todoComments returns the comments that start with TODO, FIXME or XXX, a
// doc comment's included (`/// TODO: ...`, `//! FIXME`: the lexer strips the
// doc markers, and a doc comment that starts with the word is a note about
// unwritten code all the same); one with the word later on (`/// See the
// TODO list`) is not.
func todoComments(comments []comment) []testscan.Marker {
	var out []testscan.Marker
	for _, c := range comments {
		if text, ok := testscan.TodoComment(c.text); ok {
			out = append(out, testscan.Marker{Line: c.line, Kind: "todo-comment", Text: text})
		}
	}
	return out
}

// placeholderMacro reads the macro call at i (its name followed by '!') when
// it stands in for code not written: todo!(..) with any arguments,
// unimplemented!() bare, and unimplemented!("...") and panic!("...") whose
// message literal says so
// (testscan.PlaceholderMessage). It returns the call's normalized text,
// without a path qualifier (std::todo!() reads todo!()).
func placeholderMacro(toks []token, match []int, i int) (string, bool) {
	open := i + 2
	if open >= len(toks) || toks[i+1].Kind != tkPunct || match[open] <= open {
		return "", false
	}
	switch toks[open].Text {
	case "(", "[", "{":
	default:
		return "", false
	}
	close := match[open]
	// panic! says so by its message; so does an unimplemented! that has
	// one: `unimplemented!("use register_borrowed instead")` marks a path
	// that is not supported by design, not code left unwritten.
	hasMsg := open+1 < close
	saysSo := hasMsg && toks[open+1].Kind == tkString && testscan.PlaceholderMessage(stringValue(toks[open+1].Text))
	if (toks[i].Text == "panic" || toks[i].Text == "unimplemented" && hasMsg) && !saysSo {
		return "", false
	}
	return oneLine(joinTokens(toks[i : close+1])), true
}

// oneLine folds the white space of a text that spans lines (a multi-line
// string literal) into single spaces, so that reindenting it keeps the text.
func oneLine(s string) string {
	if strings.IndexByte(s, '\n') < 0 {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// stringValue is the value of a string literal token: a raw string's text
// between its quotes, a plain, byte or C string's with its escapes read.
func stringValue(text string) string {
	i := 0
	for i < len(text) && (text[i] == 'b' || text[i] == 'c') {
		i++
	}
	if i < len(text) && text[i] == 'r' {
		body := strings.TrimLeft(text[i+1:], "#")
		body = strings.TrimRight(body, "#")
		if len(body) >= 2 && body[0] == '"' && body[len(body)-1] == '"' {
			return body[1 : len(body)-1]
		}
		return strings.TrimPrefix(body, `"`)
	}
	return clex.Unquote(text[i:])
}

// lintAttr reads an attribute at '#' that silences lints.
func lintAttr(toks []token, match []int, i int) []testscan.Marker {
	j := i + 1
	if j < len(toks) && toks[j].Text == "!" {
		j++
	}
	if j >= len(toks) || toks[j].Text != "[" || match[j] <= j {
		return nil
	}
	body := toks[j+1 : match[j]]
	var out []testscan.Marker
	if len(body) > 0 && body[0].Text == "cfg_attr" && len(body) > 2 && match[j+2] > j+2 {
		for _, arg := range splitArgs(toks[j+3 : match[j+2]]) {
			if lintName(arg) {
				out = append(out, testscan.Marker{Line: toks[i].Line, Kind: "nolint", Text: joinTokens(arg)})
			}
		}
		return out
	}
	if lintName(body) {
		out = append(out, testscan.Marker{Line: toks[i].Line, Kind: "nolint", Text: joinTokens(body)})
	}
	return out
}

func lintName(toks []token) bool {
	return len(toks) > 1 && toks[0].Kind == tkIdent && (toks[0].Text == "allow" || toks[0].Text == "expect") && toks[1].Text == "("
}

// statementEnd returns the index of the ';' ending the statement from i (or the
// closer of the enclosing group).
func statementEnd(toks []token, match []int, i int) int {
	for n := 0; i < len(toks) && n < maxStatement; n++ {
		t := toks[i]
		if t.Kind == tkPunct {
			switch t.Text {
			case ";", "}", ")", "]":
				return i
			case "(", "[", "{":
				if match[i] > i {
					i = match[i] + 1
					continue
				}
				return len(toks)
			}
		}
		i++
	}
	return i
}

// fallible reports whether an expression ends in a call, a ? or an .await: the
// kinds of value that carry an error.
func fallible(expr []token) bool {
	if len(expr) == 0 {
		return false
	}
	last := expr[len(expr)-1]
	return last.Text == ")" || last.Text == "?" || last.Text == "await"
}

func closesCall(t token) bool { return t.Text == ")" || t.Text == "?" || t.Text == "await" }

// assigns reports a top-level '=' in a statement: `x = call().ok();` keeps the value.
func assigns(stmt []token) bool {
	depth := 0
	for _, t := range stmt {
		switch t.Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case "=", "+=", "-=", "|=", "&=":
			if depth == 0 && t.Kind == tkPunct {
				return true
			}
		}
	}
	return false
}

// comparisons finds literals that code compares against: operands of == and != in
// if/while conditions and match guards, literal patterns of if let / while let,
// and literal patterns of match arms.
func comparisons(toks []token, match []int) []testscan.Marker {
	c := &comparer{toks: toks, match: match, reported: map[int]bool{}}
	inCond := make([]int, len(toks)+1)
	for i, t := range toks {
		if t.Kind != tkIdent {
			continue
		}
		switch t.Text {
		case "if", "while":
			end := c.conditionEnd(i + 1)
			if i+1 < end {
				inCond[i+1]++
				inCond[end]--
			}
			if i+1 < len(toks) && toks[i+1].Text == "let" {
				for k := i + 2; k < end; k++ {
					if toks[k].Text == "=" && toks[k].Kind == tkPunct {
						break
					}
					c.reportLiteral(k)
				}
			}
		case "match":
			c.matchArms(i)
		}
	}
	depth := 0
	for i, t := range toks {
		depth += inCond[i]
		if depth <= 0 || t.Kind != tkPunct || (t.Text != "==" && t.Text != "!=") {
			continue
		}
		if i > 0 && isLiteralTok(toks[i-1]) {
			c.reportLiteral(i - 1)
		}
		r := i + 1
		if r < len(toks) && toks[r].Text == "-" {
			r++
		}
		if r < len(toks) && isLiteralTok(toks[r]) && (r+1 >= len(toks) || toks[r+1].Text != ".") {
			c.reportLiteral(r)
		}
	}
	sort.SliceStable(c.out, func(a, b int) bool { return c.out[a].Line < c.out[b].Line })
	return c.out
}

type comparer struct {
	toks     []token
	match    []int
	reported map[int]bool
	out      []testscan.Marker
}

// maxScan bounds the tokens read for one condition or match header.
const maxScan = 4096

// conditionEnd returns the index of the '{' (or '=>' of a match guard) that ends
// the condition starting at i. Groups are jumped over, so closures inside the
// condition do not end it.
func (c *comparer) conditionEnd(i int) int {
	for n := 0; i < len(c.toks) && n < maxScan; n++ {
		t := c.toks[i]
		if t.Kind == tkPunct {
			switch t.Text {
			case "{", "=>", ";", "}", ")", "]":
				return i
			case "(", "[":
				if c.match[i] > i {
					i = c.match[i] + 1
					continue
				}
				return i
			}
		}
		i++
	}
	return i
}

// matchArms reports the literal patterns of the match expression at i.
func (c *comparer) matchArms(i int) {
	open := c.conditionEnd(i + 1)
	if open >= len(c.toks) || c.toks[open].Text != "{" || c.match[open] <= open {
		return
	}
	close := c.match[open]
	k := open + 1
	for k < close {
		// The pattern runs to '=>' at this level; a guard starts at 'if'.
		guard := false
		depth := 0
		for k < close && !(depth == 0 && c.toks[k].Text == "=>") {
			t := c.toks[k]
			switch {
			case t.Kind == tkPunct && (t.Text == "(" || t.Text == "[" || t.Text == "{"):
				depth++
			case t.Kind == tkPunct && (t.Text == ")" || t.Text == "]" || t.Text == "}"):
				depth--
			case depth == 0 && t.Kind == tkIdent && t.Text == "if":
				guard = true
			case !guard:
				c.reportLiteral(k)
			}
			k++
		}
		k++ // past '=>'
		if k < close && c.toks[k].Text == "{" && c.match[k] > k {
			k = c.match[k] + 1
			if k < close && c.toks[k].Text == "," {
				k++
			}
			continue
		}
		for k < close && c.toks[k].Text != "," {
			if t := c.toks[k]; t.Kind == tkPunct && (t.Text == "(" || t.Text == "[" || t.Text == "{") && c.match[k] > k {
				k = c.match[k]
			}
			k++
		}
		k++
	}
}

// reportLiteral records the literal at k (a '-' before a number joins it).
func (c *comparer) reportLiteral(k int) {
	if k < 0 || k >= len(c.toks) || c.reported[k] || !isLiteralTok(c.toks[k]) {
		return
	}
	c.reported[k] = true
	text := c.toks[k].Text
	if k > 0 && c.toks[k].Kind == tkNumber && c.toks[k-1].Text == "-" {
		text = "-" + text
	}
	if trivialLiteral(text) {
		return
	}
	c.out = append(c.out, testscan.Marker{Line: c.toks[k].Line, Kind: "literal", Text: text})
}

func isLiteralTok(t token) bool {
	return t.Kind == tkString || t.Kind == tkChar || t.Kind == tkNumber
}

// trivialLiteral reports literals too common to mean anything.
func trivialLiteral(text string) bool {
	switch text {
	case "0", "1", "-1", `""`, "0.0", "1.0", `b""`, "0usize", "1usize":
		return true
	}
	return false
}

// shadowedAsserts finds `macro_rules! assert_eq { ... }` whose every rule
// expands to nothing: a local macro that shadows a standard assertion and
// checks nothing.
func shadowedAsserts(toks []token, match []int) []testscan.Marker {
	var out []testscan.Marker
	for i := 0; i+3 < len(toks); i++ {
		if toks[i].Text != "macro_rules" || toks[i+1].Text != "!" || !shadowable(toks[i+2].Text) {
			continue
		}
		open := i + 3
		if toks[open].Text != "{" && toks[open].Text != "(" && toks[open].Text != "[" {
			continue
		}
		close := match[open]
		if close <= open {
			continue
		}
		// The rules: (pattern) => {expansion}; ...
		empty, rules := true, 0
		for k := open + 1; k < close; k++ {
			if toks[k].Text == "=>" && k+1 < close {
				rules++
				b := k + 1
				e := match[b]
				if e != b+1 { // a non-empty expansion
					empty = false
				}
				if e > k {
					k = e
				}
			}
		}
		if rules > 0 && empty {
			out = append(out, testscan.Marker{Line: toks[i].Line, Kind: "noop-matcher", Text: "macro_rules! " + toks[i+2].Text + " that expands to nothing"})
		}
		i = close
	}
	return out
}

// shadowable: an assertion macro the extractor reads by its exact name (a
// project's own assert_* helper that expands to nothing may be a release
// build's stub).
func shadowable(name string) bool {
	_, ok := assertMacros[name]
	return ok
}
