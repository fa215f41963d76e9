package testscan

import (
	"sort"
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

// DeprecatedBefore reports whether a comment standing right before the
// token at start says deprecated (DeprecatedDoc). n comments are sorted
// by off, the index of the first token after each; text is a comment's
// text. Each scanner's comments are of its own type, so they are read
// through the two functions.
func DeprecatedBefore(n int, off func(c int) int, text func(c int) string, start int) bool {
	c := sort.Search(n, func(c int) bool { return off(c) >= start })
	for ; c < n && off(c) == start; c++ {
		if DeprecatedDoc(text(c)) {
			return true
		}
	}
	return false
}
