package analyze

import (
	"strings"

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

// removedTexts returns the string literals of at least minRemovedText
// bytes on production lines the change removed, that no new production
// version holds and whose line was not reworded.
func removedTexts(pairs []*pair) (texts []removedText, newData [][]byte) {
	for _, pr := range pairs {
		for _, v := range pr.versions() {
			if !v.old {
				newData = append(newData, v.data)
			}
		}
	}
	for _, pr := range pairs {
		oldData, newVersion, inTest, ok := pr.production()
		if !ok {
			continue
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
	}
	return texts, newData
}

// textSubject returns the removed text a deleted test expected (a literal of
// its body, or its name, holding the text or held by it), nil when none.
func textSubject(tc *testscan.TestCase, texts []removedText, newData [][]byte) *removedText {
	if len(texts) == 0 {
		return nil
	}
	for i := range texts {
		t := &texts[i]
		if strings.Contains(tc.ID, t.text) {
			return t
		}
		for _, lit := range tc.Literals {
			if body, ok := unquote(strings.TrimLeft(lit, "rbufRBUF")); ok {
				lit = body // Python's r"..", b'..' too
			}
			if len(lit) < minRemovedText || mentionedIn(newData, lit) {
				continue
			}
			if strings.Contains(t.text, lit) || strings.Contains(lit, t.text) {
				return t
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
	for i < len(l) && (isIdentByte(l[i]) || l[i] == '.') {
		i++
	}
	return "\x00" + l[:i]
}
