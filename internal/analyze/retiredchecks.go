package analyze

import (
	"strings"
	"unicode"

	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// A deprecation ends when a release removes the deprecated behaviour and
// its warning together. The checks that the warning was given go with it
// (`with pytest.deprecated_call(match="Script info"): app =
// find_best_app(script_info, Module)`), and so do the checks of what the
// deprecated way made (`assert app.name == "appname"` on that app, the
// flag a `@app.before_first_request` hook set): the behaviour they held
// the code to is gone, by design. retiredChecks tells those checks from
// the others a test gave up. A check of a warning is retired only when
// the change removed, from production code, a deprecation notice that
// says what the check expected: the text its match= looks for, or a name
// the checked block uses ('before_first_request' is deprecated...). A
// warning still given, or a notice of something else, retires nothing;
// and a check of a value the deprecated block did not make, or that the
// test assigned again after it, is lost as before. Python's pytest and
// unittest spellings are read: the languages whose tests check
// deprecation warnings by kind.

// deprecationCheck reports whether a check expects a deprecation warning.
func deprecationCheck(x testscan.Assertion) bool {
	if x.Kind == "pytest.deprecated_call" {
		return true
	}
	k := strings.ToLower(x.Kind)
	if !strings.Contains(k, "warns") {
		return false
	}
	s := x.Subject + " " + x.Expected
	return strings.Contains(s, "DeprecationWarning") || strings.Contains(s, "FutureWarning")
}

// matchArg is the text a warning check's match= (or assertWarnsRegex's
// pattern) looks for.
var matchArg = lazyre.New(`match\s*=\s*[rRbBuU]?(?:"([^"]*)"|'([^']*)')`)

// retiredNotices are the deprecation notices the change removed from
// production code and left nowhere in it, lowercased (see pairTexts):
// the string literals of its removed lines that say "deprecat", once per
// change.
func (cr *callReach) retiredNotices() []string {
	if cr.notices != nil {
		return *cr.notices
	}
	newData := newProduction(cr.pairs)
	out := []string{}
	for _, pr := range cr.pairs {
		for _, t := range pairTexts(pr, newData) {
			if l := strings.ToLower(t.text); strings.Contains(l, "deprecat") {
				out = append(out, l)
			}
		}
	}
	cr.notices = &out
	return out
}

// pyBlock returns the last line of the statement at line (1-based) of a
// Python text: a with statement's block, or the lines up to where the
// statement's brackets close.
func pyBlock(lines []string, line int) int {
	if line < 1 || line > len(lines) {
		return line
	}
	end := line
	depth := 0
	for ; end <= len(lines); end++ {
		depth += bracketDelta(lines[end-1])
		if depth <= 0 {
			break
		}
	}
	if end > len(lines) {
		return len(lines)
	}
	if !strings.HasSuffix(strings.TrimSpace(stripPyComment(lines[end-1])), ":") {
		return end
	}
	indent := indentOf(lines[line-1])
	last := end
	for i := end + 1; i <= len(lines); i++ {
		l := lines[i-1]
		if strings.TrimSpace(l) == "" {
			continue
		}
		if indentOf(l) <= indent {
			break
		}
		last = i
	}
	return last
}

// bracketDelta counts the brackets a line opens less those it closes,
// outside its strings and comment.
func bracketDelta(l string) int {
	n := 0
	var quote byte
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			return n
		case c == '(' || c == '[' || c == '{':
			n++
		case c == ')' || c == ']' || c == '}':
			n--
		}
	}
	return n
}

func stripPyComment(l string) string {
	if i := strings.IndexByte(l, '#'); i >= 0 && bracketDelta(l[:i]) == bracketDelta(l) {
		return l[:i]
	}
	return l
}

func indentOf(l string) int {
	return len(l) - len(strings.TrimLeft(l, " \t"))
}

// pyAssigned matches a line that binds a name: `x = ...`, `x: T = ...`,
// `x += ...`, `... as x:`.
var pyAssigned = lazyre.New(`^\s*([A-Za-z_]\w*)\s*(?::[^=]*)?(?:[-+*/%|&^]|//|\*\*|<<|>>)?=[^=]|\bas\s+([A-Za-z_]\w*)\s*:?\s*$`)

// assignedName is the name a line binds, "" when none.
func assignedName(l string) string {
	m := pyAssigned.FindStringSubmatch(stripPyComment(l))
	if m == nil {
		return ""
	}
	if m[1] != "" {
		return m[1]
	}
	return m[2]
}

// retiredBlock is a checked deprecated block of an old test: its lines
// and the names bound in it.
type retiredBlock struct {
	start, end int
	names      map[string]bool
}

// retiredChecks splits the checks a test gave up (gone, of old version o)
// into those about a deprecation the change retired and the rest, and
// returns the notice that retired the first of them.
func retiredChecks(gone []testscan.Assertion, o *locTest, cr *callReach) (kept, retired []testscan.Assertion, notice string) {
	if cr == nil || o.side.facts == nil || o.side.facts.Lang != testscan.Python {
		return gone, nil, ""
	}
	var warns []int
	for i, x := range gone {
		if deprecationCheck(x) {
			warns = append(warns, i)
		}
	}
	if len(warns) == 0 {
		return gone, nil, ""
	}
	notices := cr.retiredNotices()
	if len(notices) == 0 {
		return gone, nil, ""
	}
	lines := strings.Split(string(o.pr.text(true)), "\n")
	isRetired := make([]bool, len(gone))
	var blocks []retiredBlock
	for _, i := range warns {
		x := gone[i]
		end := pyBlock(lines, x.Line)
		n := noticeOf(x, lines, end, notices)
		if n == "" {
			continue
		}
		if notice == "" {
			notice = n
		}
		isRetired[i] = true
		b := retiredBlock{start: x.Line, end: end, names: map[string]bool{}}
		for l := x.Line; l <= end && l <= len(lines); l++ {
			if name := assignedName(lines[l-1]); name != "" {
				b.names[name] = true
			}
		}
		blocks = append(blocks, b)
	}
	// The old test's checks of what a retired block made, by assertKey:
	// a check the test made several times is lost once per copy, whichever
	// copy the diff names.
	made := map[string]int{}
	for _, x := range o.tc.Assertions {
		if !deprecationCheck(x) && madeIn(x, blocks, lines) {
			made[assertKey(x)]++
		}
	}
	for i, x := range gone {
		if isRetired[i] || deprecationCheck(x) {
			continue
		}
		if k := assertKey(x); made[k] > 0 {
			made[k]--
			isRetired[i] = true
		}
	}
	kept, retired = splitMarked(gone, isRetired)
	return kept, retired, notice
}

// noticeOf returns the retired notice that says what the warning check x
// (its block ending at line end) expected, "" when none does: the text
// its match= looks for, or else a name its block uses.
func noticeOf(x testscan.Assertion, lines []string, end int, notices []string) string {
	if m := matchArg.FindStringSubmatch(x.Subject + " " + x.Expected); m != nil {
		want := strings.ToLower(strings.ReplaceAll(m[1]+m[2], `\`, ""))
		if len(strings.TrimSpace(want)) < 4 {
			return ""
		}
		for _, n := range notices {
			if strings.Contains(n, want) {
				return n
			}
		}
		return ""
	}
	for l := x.Line; l <= end && l <= len(lines); l++ {
		for _, w := range codeNames(lines[l-1]) {
			for _, n := range notices {
				if containsToken(n, strings.ToLower(w)) {
					return n
				}
			}
		}
	}
	return ""
}

// codeNames are the names of a line that read as an API's (with an
// underscore or a dot inside, six letters or more): before_first_request,
// app.json_encoder; not app, foo or a plain word of a message.
func codeNames(l string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(stripPyComment(l), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
	}) {
		if len(f) >= 6 && strings.Contains(strings.Trim(f, "_"), "_") {
			out = append(out, f)
		}
	}
	return out
}

// madeIn reports whether check x (at its line) is about a value a retired
// block made:
// its subject's first name is bound in a block before it and not bound
// again between the block and the check.
func madeIn(x testscan.Assertion, blocks []retiredBlock, lines []string) bool {
	root := x.Subject
	if i := strings.IndexFunc(root, func(r rune) bool { return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') }); i >= 0 {
		root = root[:i]
	}
	if root == "" {
		return false
	}
	for _, b := range blocks {
		if !b.names[root] || b.start >= x.Line {
			continue
		}
		again := false
		for l := b.end + 1; l < x.Line && l <= len(lines); l++ {
			if assignedName(lines[l-1]) == root {
				again = true
				break
			}
		}
		if !again {
			return true
		}
	}
	return false
}

// splitMarked splits checks into those not marked and those marked.
func splitMarked(xs []testscan.Assertion, marked []bool) (rest, picked []testscan.Assertion) {
	for i, x := range xs {
		if marked[i] {
			picked = append(picked, x)
		} else {
			rest = append(rest, x)
		}
	}
	return rest, picked
}
