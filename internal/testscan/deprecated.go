package testscan

import (
	"strings"
	"unicode"
)

// DeprecatedDoc reports whether a doc comment or docstring (its text
// without the comment delimiters) marks its declaration deprecated: a line
// that starts with the word, as Go's "Deprecated: use X", JSDoc's
// "@deprecated", Sphinx's ".. deprecated:: 2.0" and Rust's "**Deprecated**"
// write it. A function kept for compatibility whose body became a no-op
// says so.
func DeprecatedDoc(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimLeft(strings.TrimSpace(l), "*/#!@ \t")
		l = strings.TrimPrefix(l, ".. ")
		if len(l) < len("deprecated") || !strings.EqualFold(l[:len("deprecated")], "deprecated") {
			continue
		}
		rest := l[len("deprecated"):]
		if rest == "" || !unicode.IsLetter(rune(rest[0])) {
			return true
		}
	}
	return false
}
