package analyze

import (
	"bytes"
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// A behaviour removed from production code takes its words with it: the
// error a validation raised ("'multiple' is not valid with 'is_flag', use
// 'count'."), the message a guard threw ("Failed to pipe. The response
// has been emitted already."). A deleted test that expected such a text,
// which the change removed from production code and left nowhere in it,
// tested the behaviour the change removed. A text reworded in place (its
// line replaced by one that differs only in its strings) is not removed:
// the behaviour stays, and its test had to follow.

// minRemovedText is how long a text must be to tell a behaviour: shorter
// strings ("id", "back") are too common to name one.
const minRemovedText = 10

// removedText is a string literal the change removed from production code.
type removedText struct {
	text, file string
}

// pairTexts returns the string literals of at least minRemovedText bytes
// on production lines of pr that the change removed, that no new
// production version (newData) holds and whose line was not reworded.
func pairTexts(pr *pair, newData [][]byte) []removedText {
	oldData, newVersion, inTest, ok := pr.production()
	if !ok {
		return nil
	}
	oldLines := strings.Split(string(oldData), "\n")
	gone := removedLines(oldLines, newVersion)
	newLines := strings.Split(string(newVersion), "\n")
	added := removedLines(newLines, oldData) // lines the new version gained
	// A line the new version gained with the same code around its
	// strings, or with the same first word and a string of its own
	// (throw new Error('..') for throw new PipeError('..')), may say
	// the removed text in other words.
	reworded := map[string]bool{}
	for i, l := range newLines {
		if added[i] {
			reworded[skeleton(l)] = true
			if strings.ContainsAny(l, "\"'`") {
				reworded[firstWord(l)] = true
			}
		}
	}
	var texts []removedText
	for i, l := range oldLines {
		if !gone[i] || inTest(i+1) || !strings.ContainsAny(l, "\"'`") || reworded[skeleton(l)] || reworded[firstWord(l)] {
			continue
		}
		for _, t := range quotedTexts(l) {
			if len(strings.TrimSpace(t)) >= minRemovedText && !mentionedIn(newData, t) {
				texts = append(texts, removedText{t, pr.fc.OldPath})
			}
		}
	}
	return texts
}

// expectedTexts are the texts a deleted test expected that no new
// production version holds: its string literals of at least
// minRemovedText bytes (quotes and Python's prefixes stripped), and the
// values of its parametrize rows.
func expectedTexts(tc *testscan.TestCase, newData [][]byte) []string {
	var out []string
	add := func(lit string) {
		if body, ok := unquote(strings.TrimLeft(lit, "rbufRBUF")); ok {
			lit = body // Python's r"..", b'..' too
		}
		if len(lit) >= minRemovedText && !mentionedIn(newData, lit) {
			out = append(out, lit)
		}
	}
	for _, lit := range tc.Literals {
		add(lit)
	}
	for _, row := range tc.Params {
		for _, v := range row {
			add(v)
		}
	}
	return out
}

// textSubject returns the removed text a deleted test expected (one of its
// expected texts holding a removed text or held by it), nil when none. It
// reads only the production files whose old version holds one of them.
func textSubject(tc *testscan.TestCase, pairs []*pair, newData [][]byte, cache map[*pair][]removedText) *removedText {
	want := expectedTexts(tc, newData)
	if len(want) == 0 {
		return nil
	}
	for _, pr := range pairs {
		if pr.old == nil || pr.old.isTest || !slices.ContainsFunc(want, func(t string) bool { return mentionedIn([][]byte{pr.text(true)}, t) }) {
			continue
		}
		texts, ok := cache[pr]
		if !ok {
			texts = pairTexts(pr, newData)
			cache[pr] = texts
		}
		for i := range texts {
			for _, lit := range want {
				if strings.Contains(texts[i].text, lit) || strings.Contains(lit, texts[i].text) {
					return &texts[i]
				}
			}
		}
	}
	return nil
}

// skeleton is a line without its indentation and with each string literal
// emptied: what stays when only the strings of a line are reworded.
func skeleton(l string) string {
	l = strings.TrimSpace(l)
	var b strings.Builder
	at := 0
	literalSpans(l, func(start, end int) {
		b.WriteString(l[at : start+1])
		at = min(end, len(l))
	})
	b.WriteString(l[at:])
	return b.String()
}

// firstWord is the first word of a line, "\x00" before it so that it is
// never a skeleton.
func firstWord(l string) string {
	l = strings.TrimSpace(l)
	i := 0
	for i < len(l) && (ci.IsIdentByte(l[i]) || l[i] == '.') {
		i++
	}
	return "\x00" + l[:i]
}

// A special case removed: production code compared a value against a
// string literal (`if (url === 'back')`, `case "legacy":`, see
// testscan.File.Comparisons) and, after the change, compares against it
// nowhere and does not spell it as a string at all. A deleted test that
// passed that literal exercised the special case: res.location('back')
// went with the "back" alias of the referrer. The literal may be short:
// compared in a condition it names one branch, not a word of prose.

// specialCase returns the special case the change removed that deleted
// test o passed as a literal, nil when none.
func (u *codeUse) specialCase(o *locTest) *removedText {
	if len(o.tc.Literals) == 0 {
		return nil
	}
	if u.cases == nil {
		u.cases = removedCases(u.decls.pairs, u.newVersions())
	}
	for _, l := range o.tc.Literals {
		if body, ok := unquote(l); ok {
			if file, ok := u.cases[body]; ok {
				return &removedText{body, file}
			}
		}
	}
	return nil
}

// removedCases maps the string literals old production sides of the change
// compared against, and no new side (newData are their texts) compares
// against or spells as a string, to the file that did.
func removedCases(pairs []*pair, newData [][]byte) map[string]string {
	now := map[string]bool{}
	for _, pr := range pairs {
		for _, v := range pr.versions() {
			if v.old {
				continue
			}
			for _, m := range v.sd.facts.Comparisons {
				if body, ok := unquote(m.Text); ok {
					now[body] = true
				}
			}
		}
	}
	out := map[string]string{}
	for _, pr := range pairs {
		for _, v := range pr.versions() {
			if !v.old {
				continue
			}
			for _, m := range v.sd.facts.Comparisons {
				body, ok := unquote(m.Text)
				if !ok || strings.TrimSpace(body) == "" || now[body] || quotedIn(newData, body) {
					continue
				}
				if _, seen := out[body]; !seen {
					out[body] = v.path
				}
			}
		}
	}
	return out
}

// quotedIn reports whether any of data spells s as a string literal, in
// any of the usual quotes, on a line of code: a comment's line (a doc
// comment's "can also be \"back\"") does not keep a special case alive.
func quotedIn(data [][]byte, s string) bool {
	for _, d := range data {
		for _, q := range []string{`"`, `'`, "`"} {
			lit := []byte(q + s + q)
			for rest := d; ; {
				i := bytes.Index(rest, lit)
				if i < 0 {
					break
				}
				start := bytes.LastIndexByte(rest[:i], '\n') + 1
				if !commentLine(rest[start:i]) {
					return true
				}
				rest = rest[i+len(lit):]
			}
		}
	}
	return false
}

// commentLine reports whether the start of a line, up to a point, opens
// a comment: a line comment, a block comment's line or a doc comment's.
// A comment after code (`f() // "back"`) is read as code: it keeps the
// special case alive, the safe way to be wrong.
func commentLine(head []byte) bool {
	h := bytes.TrimSpace(head)
	for _, p := range []string{"//", "#", "/*", "*", "--"} {
		if bytes.HasPrefix(h, []byte(p)) {
			return true
		}
	}
	return false
}
