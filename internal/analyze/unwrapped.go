package analyze

import (
	"regexp"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// A compatibility wrapper that returns its argument (`def u(s): return s`,
// Python 2's unicode literal helper on Python 3) makes two checks that differ
// only by it the same check: requests 8bce583b95 ("Farewell, sweet Concorde!")
// dropped `with pytest.raises(ValueError): requests.post(url,
// data=u('[{"some": "data"}]'), ...)` beside the very same check without
// u(), which it kept. unwrappedDuplicates drops from the checks a test gave
// up one whose text, with the calls of such wrappers replaced by their
// argument, is the text of another check the old version made and of one
// the new version still makes: a copy, not a check lost. A wrapper counts
// only when its old version, in a file the change touched, is defined as
// returning its parameter (a definition the change cannot forge, since BASE
// holds it); another function of one argument is no identity.

// identityDef matches a Python `def NAME(PARAM):` or a JavaScript `function
// NAME(PARAM) {` header, its body read after it.
var identityDef = lazyre.New(`^\s*(?:def\s+([A-Za-z_]\w*)\s*\(\s*([A-Za-z_]\w*)\s*\)\s*(?:->[^:]*)?:\s*$|(?:export\s+)?function\s+([A-Za-z_$][\w$]*)\s*\(\s*([A-Za-z_$][\w$]*)\s*\)\s*\{\s*(?:return\s+([A-Za-z_$][\w$]*)\s*;?\s*\}\s*)?$)`)

// arrowIdentity matches `const NAME = (PARAM) => PARAM` (let, var).
var arrowIdentity = lazyre.New(`^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*\(?\s*([A-Za-z_$][\w$]*)\s*\)?\s*=>\s*([A-Za-z_$][\w$]*)\s*;?\s*$`)

// identityWrappers are the names the old versions of the change's files
// define as returning their only parameter, once per change.
func (cr *callReach) identityWrappers() map[string]bool {
	if cr.identities != nil {
		return cr.identities
	}
	cr.identities = map[string]bool{}
	for _, pr := range cr.pairs {
		if pr.old == nil || pr.old.facts == nil {
			continue
		}
		if l := pr.old.facts.Lang; l != testscan.Python && l != testscan.JavaScript {
			continue
		}
		text := pr.text(true)
		if !strings.Contains(string(text), "return") && !strings.Contains(string(text), "=>") {
			continue
		}
		for name := range identitiesIn(strings.Split(string(text), "\n")) {
			cr.identities[name] = true
		}
	}
	return cr.identities
}

// identitiesIn reads the identity functions a file's lines define.
func identitiesIn(lines []string) map[string]bool {
	out := map[string]bool{}
	for i, l := range lines {
		// Each pattern needs its keyword: most lines are not tried.
		if strings.Contains(l, "=>") {
			if m := arrowIdentity.FindStringSubmatch(l); m != nil && m[2] == m[3] {
				out[m[1]] = true
				continue
			}
		}
		if !strings.Contains(l, "def") && !strings.Contains(l, "function") {
			continue
		}
		m := identityDef.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		switch {
		case m[1] != "" && pyReturnsOnly(lines[i+1:], indentOf(l), m[2]):
			out[m[1]] = true
		case m[3] != "" && m[5] != "" && m[5] == m[4]:
			out[m[3]] = true // function f(x) { return x }
		case m[3] != "" && m[5] == "" && jsReturnsOnly(lines[i+1:], m[4]):
			out[m[3]] = true
		}
	}
	return out
}

// pyReturnsOnly reports whether a Python body (the lines after its header,
// indented deeper than indent) is `return param`, after a docstring.
func pyReturnsOnly(body []string, indent int, param string) bool {
	var stmts []string
	for _, l := range body {
		t := strings.TrimSpace(stripPyComment(l))
		if strings.TrimSpace(l) == "" || t == "" {
			continue
		}
		if indentOf(l) <= indent {
			break
		}
		stmts = append(stmts, t)
		if len(stmts) > 2 {
			return false
		}
	}
	if len(stmts) == 2 && isDocstring(stmts[0]) {
		stmts = stmts[1:]
	}
	return len(stmts) == 1 && stmts[0] == "return "+param
}

// isDocstring reports a one-line string statement.
func isDocstring(s string) bool {
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if len(s) >= 2*len(q) && strings.HasPrefix(s, q) && strings.HasSuffix(s, q) {
			return true
		}
	}
	return false
}

// jsReturnsOnly reports whether a JavaScript body (the lines after its
// header) is `return param` up to its closing brace.
func jsReturnsOnly(body []string, param string) bool {
	var stmts []string
	for _, l := range body {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "//") {
			continue
		}
		if t == "}" {
			return len(stmts) == 1 && strings.TrimSuffix(stmts[0], ";") == "return "+param
		}
		stmts = append(stmts, t)
		if len(stmts) > 1 {
			return false
		}
	}
	return false
}

// unwrap replaces each call of a wrapper of ws with one argument by that
// argument: `post(data=u('x'))` -> `post(data='x')`. Strings are copied as
// they are; a call with several arguments is left. It reads s once: the
// brackets are matched first, then the wrappers' names and brackets left out.
func unwrap(s string, ws map[string]bool) string {
	match, comma := brackets(s)
	drop := make([]bool, len(s))
	dropped := false
	for i := 0; i < len(s); {
		c := s[i]
		if c == '"' || c == '\'' || c == '`' {
			i = skipString(s, i)
			continue
		}
		if !isIdentByte(c) || i > 0 && (isIdentByte(s[i-1]) || s[i-1] == '.') {
			i++
			continue
		}
		j := i
		for j < len(s) && isIdentByte(s[j]) {
			j++
		}
		k := j
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		if ws[s[i:j]] && k < len(s) && s[k] == '(' && match[k] > k && !comma[k] {
			e := match[k]
			for x := i; x <= k; x++ {
				drop[x] = true
			}
			for x := k + 1; x < e && isSpace(s[x]); x++ {
				drop[x] = true
			}
			for x := e; x > k && (x == e || isSpace(s[x])); x-- {
				drop[x] = true
			}
			dropped = true
			i = k + 1
			continue
		}
		i = j
	}
	if !dropped {
		return s
	}
	var b strings.Builder
	for x := 0; x < len(s); x++ {
		if !drop[x] {
			b.WriteByte(s[x])
		}
	}
	return b.String()
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isIdentByte is isWordByte with JavaScript's $.
func isIdentByte(c byte) bool { return isWordByte(c) || c == '$' }

// skipString returns the index after the string literal starting at i (to
// the end of s when it does not close).
func skipString(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(s)
}

// brackets matches the brackets of s outside its strings: match[i] is the
// index of the round bracket closing the one at i (0 when none does), and
// comma[i] is set when a comma sits directly inside it.
func brackets(s string) (match []int, comma []bool) {
	match = make([]int, len(s))
	comma = make([]bool, len(s))
	var open []int
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\'', '`':
			i = skipString(s, i) - 1
		case '(', '[', '{':
			open = append(open, i)
		case ')', ']', '}':
			if len(open) == 0 {
				continue
			}
			o := open[len(open)-1]
			open = open[:len(open)-1]
			if c == ')' && s[o] == '(' {
				match[o] = i
			}
		case ',':
			if len(open) > 0 {
				comma[open[len(open)-1]] = true
			}
		}
	}
	return match, comma
}

var spaces = regexp.MustCompile(`\s+`)

// checkText is what check x of a version checks, as text: its kind and
// expected value, and its subject, or for a Python with-block check
// (pytest.raises(E):) the block's lines.
func checkText(x testscan.Assertion, lang testscan.Lang, lines func() []string) string {
	subject := x.Subject
	if lang == testscan.Python && subject == "" {
		ls := lines()
		if end := pyBlock(ls, x.Line); x.Line >= 1 && end <= len(ls) && end > x.Line {
			subject = strings.Join(ls[x.Line:end], "\n") // the block after its with line
		}
	}
	return x.Kind + "\x00" + x.Expected + "\x00" + x.Tolerance + "\x00" + spaces.ReplaceAllString(subject, "")
}

// unwrappedDuplicates drops from gone (the checks old test o gave up for
// new version n) those the change's identity wrappers made copies of.
func (cr *callReach) unwrappedDuplicates(gone []testscan.Assertion, o, n *locTest) []testscan.Assertion {
	if cr == nil || len(gone) == 0 || o.side.facts == nil || n.side.facts == nil {
		return gone
	}
	ws := cr.identityWrappers()
	if len(ws) == 0 {
		return gone
	}
	lang := o.side.facts.Lang
	var oldLines, newLines []string
	oldL := func() []string {
		if oldLines == nil {
			oldLines = strings.Split(string(o.pr.text(true)), "\n")
		}
		return oldLines
	}
	newL := func() []string {
		if newLines == nil {
			newLines = strings.Split(string(n.pr.text(false)), "\n")
		}
		return newLines
	}
	kept := map[string]int{} // the new version's checks, by unwrapped text
	for _, y := range n.tc.Assertions {
		kept[unwrap(checkText(y, lang, newL), ws)]++
	}
	type copies struct{ n, wrapped int }
	had := map[string]*copies{} // the old version's, by unwrapped text
	for _, z := range o.tc.Assertions {
		t := checkText(z, lang, oldL)
		u := unwrap(t, ws)
		if had[u] == nil {
			had[u] = &copies{}
		}
		had[u].n++
		if u != t {
			had[u].wrapped++
		}
	}
	var out []testscan.Assertion
	for _, x := range gone {
		u := unwrap(checkText(x, lang, oldL), ws)
		if c := had[u]; c != nil && c.wrapped > 0 && kept[u] > 0 && c.n > kept[u] {
			c.n-- // a copy of a check the test still makes
			continue
		}
		out = append(out, x)
	}
	return out
}
