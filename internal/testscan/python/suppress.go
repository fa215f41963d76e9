package python

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// suppressions returns the checker-silencing comments, except-pass blocks and
// contextlib.suppress calls of the file, in line order, and, read in the same
// walk, its placeholders (File.Placeholders): the TODO/FIXME/XXX comments in
// source order, then the raise statements that say the code is not written.
func (m *module) suppressions() (out, placeholders []testscan.Marker) {
	for _, c := range m.comments {
		for _, d := range commentDirectives(c.text) {
			d.Line = int(c.line)
			out = append(out, d)
		}
		if text, ok := testscan.TodoComment(strings.TrimLeft(c.text, "#")); ok {
			placeholders = append(placeholders, testscan.Marker{Line: int(c.line), Kind: "todo-comment", Text: text})
		}
	}
	// visit walks the tree as walk does, knowing whether body is a class's
	// (or a block at class level), whether it is an abstract method's, and
	// which statement is a method's whole stub body.
	var visit func(body []*stmt, inClass, abstract bool, stub *stmt)
	visit = func(body []*stmt, inClass, abstract bool, stub *stmt) {
		for _, s := range body {
			suppressionsIn(s, &out)
			if !s.header && s.tok(0) == "raise" && len(s.toks) > 1 {
				if notImpl, ok := placeholderRaise(s.toks); ok && !(notImpl && (abstract || s == stub)) {
					placeholders = append(placeholders, testscan.Marker{Line: s.line, Kind: "not-implemented", Text: compact(s.toks)})
				}
			}
			switch {
			case s.isDef():
				abs := abstractDecorated(s)
				var own *stmt
				if inClass {
					own = stubRaise(s)
				}
				visit(s.body, false, abs, own)
			case s.isClass():
				visit(s.body, true, false, nil)
			case s.header:
				visit(s.body, inClass, abstract, nil)
			}
		}
	}
	visit(m.root.body, false, false, nil)
	sortMarkers(out)
	return out, placeholders
}

// suppressionsIn adds the except-pass block s is and the contextlib.suppress
// calls in its tokens to out.
func suppressionsIn(s *stmt, out *[]testscan.Marker) {
	if s.header && s.tok(0) == "except" && swallows(s.body) {
		*out = append(*out, testscan.Marker{Line: s.line, Kind: "except-pass", Text: exceptText(s.toks)})
	}
	for i := 0; i+1 < len(s.toks); i++ {
		t := s.toks[i]
		if t.kind != tkName || t.text != "suppress" || !isOp(s.toks[i+1], "(") {
			continue
		}
		if i > 0 && isOp(s.toks[i-1], ".") && !(i > 1 && s.toks[i-2].text == "contextlib") {
			continue
		}
		close := matchClose(s.toks, i+1)
		*out = append(*out, testscan.Marker{Line: int(t.line), Kind: "swallowed-error", Text: "suppress(" + compact(s.toks[i+2:max(close, i+2)]) + ")"})
	}
}

// swallows reports whether an except block does nothing: only pass or ....
func swallows(body []*stmt) bool {
	if len(body) == 0 {
		return false
	}
	for _, s := range body {
		if s.header || len(s.toks) != 1 || (s.toks[0].text != "pass" && s.toks[0].text != "...") {
			return false
		}
	}
	return true
}

// exceptText normalizes an except clause header: "except", "except ValueError",
// "except (A, B)", without the bound name.
func exceptText(toks []token) string {
	rest := toks[1:]
	if len(rest) > 0 && isOp(rest[0], "*") {
		rest = rest[1:]
	}
	for i, t := range rest {
		if t.kind == tkName && t.text == "as" {
			rest = rest[:i]
			break
		}
	}
	if len(rest) == 0 {
		return "except"
	}
	return "except " + compact(rest)
}

// commentDirectives reads the suppression directives of one comment. A comment
// may hold several ("# type: ignore[attr-defined]  # noqa: E501").
func commentDirectives(text string) []testscan.Marker {
	var out []testscan.Marker
	for _, seg := range strings.Split(text, "#") {
		seg = strings.TrimSpace(seg)
		if seg == "" {
			continue
		}
		if m, ok := directive(seg); ok {
			out = append(out, m)
		}
	}
	return out
}

// directive recognizes one directive at the start of a comment segment.
func directive(seg string) (testscan.Marker, bool) {
	low := strings.ToLower(seg)
	word := func(prefix string) (string, bool) {
		if !strings.HasPrefix(low, prefix) {
			return "", false
		}
		rest := seg[len(prefix):]
		if rest != "" && isIdentChar(rest[0]) && rest[0] != '_' {
			return "", false
		}
		return rest, true
	}
	keyed := func(tool string) (string, bool) {
		if !strings.HasPrefix(low, tool) {
			return "", false
		}
		rest := strings.TrimSpace(seg[len(tool):])
		if !strings.HasPrefix(rest, ":") {
			return "", false
		}
		return strings.TrimSpace(rest[1:]), true
	}
	if rest, ok := word("noqa"); ok {
		return testscan.Marker{Kind: "noqa", Text: codesText("noqa", rest)}, true
	}
	if rest, ok := word("nosec"); ok {
		return testscan.Marker{Kind: "noqa", Text: codesText("nosec", rest)}, true
	}
	for _, tool := range []string{"flake8", "ruff"} {
		if rest, ok := keyed(tool); ok && strings.HasPrefix(strings.ToLower(rest), "noqa") {
			return testscan.Marker{Kind: "noqa", Text: tool + ": " + codesText("noqa", rest[len("noqa"):])}, true
		}
	}
	if rest, ok := keyed("pylint"); ok && rest != "" {
		r := strings.ToLower(rest)
		if strings.HasPrefix(r, "disable") || strings.HasPrefix(r, "skip-file") {
			return testscan.Marker{Kind: "noqa", Text: "pylint: " + squeeze(rest)}, true
		}
	}
	if rest, ok := keyed("type"); ok && strings.HasPrefix(strings.ToLower(rest), "ignore") {
		return testscan.Marker{Kind: "type-ignore", Text: "type: " + bracketed("ignore", rest[len("ignore"):])}, true
	}
	if rest, ok := keyed("pyright"); ok && rest != "" {
		r := strings.ToLower(rest)
		switch {
		case strings.HasPrefix(r, "ignore"):
			return testscan.Marker{Kind: "type-ignore", Text: "pyright: " + bracketed("ignore", rest[len("ignore"):])}, true
		case strings.HasPrefix(r, "basic") || strings.Contains(r, "=false") || strings.Contains(r, "=none"):
			return testscan.Marker{Kind: "type-ignore", Text: "pyright: " + squeeze(rest)}, true
		}
	}
	if rest, ok := keyed("mypy"); ok {
		r := strings.ToLower(rest)
		if strings.HasPrefix(r, "ignore-errors") || strings.HasPrefix(r, "disable-error-code") {
			return testscan.Marker{Kind: "type-ignore", Text: "mypy: " + squeeze(rest)}, true
		}
	}
	if rest, ok := keyed("pytype"); ok && strings.HasPrefix(strings.ToLower(rest), "disable") {
		return testscan.Marker{Kind: "type-ignore", Text: "pytype: " + squeeze(rest)}, true
	}
	for _, p := range []string{"pyre-ignore", "pyre-fixme"} {
		if rest, ok := word(p); ok {
			return testscan.Marker{Kind: "type-ignore", Text: bracketed(p, rest)}, true
		}
	}
	if rest, ok := keyed("pragma"); ok {
		r := strings.ToLower(squeeze(rest))
		switch {
		case strings.HasPrefix(r, "no cover") || strings.HasPrefix(r, "nocover"):
			return testscan.Marker{Kind: "coverage-ignore", Text: "pragma: no cover"}, true
		case strings.HasPrefix(r, "no branch"):
			return testscan.Marker{Kind: "coverage-ignore", Text: "pragma: no branch"}, true
		}
	}
	return testscan.Marker{}, false
}

// codesText renders "noqa" with its codes: "noqa", "noqa: E501,W291".
func codesText(head, rest string) string {
	rest = strings.TrimSpace(rest)
	if !strings.HasPrefix(rest, ":") {
		return head
	}
	var codes []string
	for _, f := range strings.FieldsFunc(rest[1:], func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if !isCode(f) {
			break
		}
		codes = append(codes, strings.ToUpper(f))
	}
	if len(codes) == 0 {
		return head
	}
	return head + ": " + strings.Join(codes, ",")
}

// isCode reports whether f looks like a checker code: letters then digits
// (E501, B006, SIM102, PLR0913) or a bandit id.
func isCode(f string) bool {
	if f == "" {
		return false
	}
	i := 0
	for i < len(f) && (f[i] >= 'A' && f[i] <= 'Z' || f[i] >= 'a' && f[i] <= 'z') {
		i++
	}
	if i == 0 || i == len(f) {
		return false
	}
	for ; i < len(f); i++ {
		if !isDigit(f[i]) {
			return false
		}
	}
	return true
}

// bracketed renders "ignore" with its optional [codes], spaces removed.
func bracketed(head, rest string) string {
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "[") {
		if end := strings.IndexByte(rest, ']'); end > 0 {
			return head + strings.ReplaceAll(rest[:end+1], " ", "")
		}
	}
	return head
}

// squeeze removes spaces around '=' and ',' and collapses the others.
func squeeze(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for _, sep := range []string{"=", ","} {
		s = strings.ReplaceAll(s, " "+sep, sep)
		s = strings.ReplaceAll(s, sep+" ", sep)
	}
	return s
}

// isAssertionComment reports whether a comment's text is itself an assertion:
// a commented-out assert statement or assertion call.
func isAssertionComment(text string) bool {
	body := strings.TrimLeft(text, "# \t")
	if len(body) > 2000 || body == "" {
		return false
	}
	toks, _, _ := lex(body)
	var code []token
	for _, t := range toks {
		if t.kind != tkNewline && t.kind != tkIndent && t.kind != tkDedent {
			code = append(code, t)
		}
	}
	if len(code) == 0 {
		return false
	}
	if code[0].kind == tkName && code[0].text == "assert" {
		if len(code) < 2 {
			return false
		}
		if code[1].kind == tkOp && !isOpener(code[1]) && code[1].text != "-" {
			return false
		}
		return plausibleExpression(code[1:])
	}
	return len(assertionCalls(code)) > 0 && dotted(code[:max(0, indexOp(code, "("))]) != ""
}

// plausibleExpression rejects prose: two plain words in a row ("assert that it
// works") never occur in an expression.
func plausibleExpression(toks []token) bool {
	for i := 1; i < len(toks); i++ {
		a, b := toks[i-1], toks[i]
		if a.kind == tkName && b.kind == tkName && !pyKeywords[a.text] && !pyKeywords[b.text] {
			return false
		}
	}
	return true
}

func indexOp(toks []token, op string) int {
	for i, t := range toks {
		if isOp(t, op) {
			return i
		}
	}
	return -1
}

// placeholderRaise reads a raise statement that stands in for code not
// written: `raise NotImplementedError` (bare, called, dotted, with any
// arguments; notImpl set) or `raise X("...")` whose message, the string
// literal that starts its first argument, says so (testscan.PlaceholderMessage).
func placeholderRaise(toks []token) (notImpl, ok bool) {
	i := 1
	if toks[i].kind != tkName {
		return false, false
	}
	for i+2 < len(toks) && isOp(toks[i+1], ".") && toks[i+2].kind == tkName {
		i += 2
	}
	if toks[i].text == "NotImplementedError" {
		return true, true
	}
	if i+2 >= len(toks) || !isOp(toks[i+1], "(") || toks[i+2].kind != tkString {
		return false, false
	}
	msg := parseStringToken(toks[i+2].text).value()
	if i+3 < len(toks) && toks[i+3].kind == tkString {
		var b strings.Builder
		b.WriteString(msg)
		for _, t := range toks[i+3:] {
			if t.kind != tkString {
				break
			}
			b.WriteString(parseStringToken(t.text).value())
		}
		msg = b.String()
	}
	return false, testscan.PlaceholderMessage(msg)
}

// stubRaise returns the statement that is a method's whole body, after an
// optional docstring, when it raises NotImplementedError: the stub that
// declares an interface method for subclasses to override.
func stubRaise(def *stmt) *stmt {
	body := def.body
	if len(body) == 2 && isDocstring(body[0]) {
		body = body[1:]
	}
	if len(body) != 1 {
		return nil
	}
	s := body[0]
	if s.header || s.tok(0) != "raise" || len(s.toks) < 2 {
		return nil
	}
	if notImpl, _ := placeholderRaise(s.toks); notImpl {
		return s
	}
	return nil
}

// abstractDecorated reports a def decorated with abc's abstractmethod,
// abstractproperty, abstractclassmethod or abstractstaticmethod (with or
// without the module prefix).
func abstractDecorated(def *stmt) bool {
	for _, d := range def.decos {
		switch decoratorName(d) {
		case "abstractmethod", "abstractproperty", "abstractclassmethod", "abstractstaticmethod":
			return true
		}
	}
	return false
}
