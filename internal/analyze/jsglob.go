package analyze

import (
	"errors"
	"regexp"
	"strings"
)

// errGlob is a glob the reader does not follow (a negation, an extglob
// other than ?(..) and @(..), an unclosed group): the caller takes the
// configuration as unread.
var errGlob = errors.New("glob not read")

// globRegexp compiles a runner's file glob (picomatch's syntax, as vitest
// and jest use it: **, *, ?, {a,b}, [..], ?(a|b), @(a|b)) into a regular
// expression over slash-separated relative paths.
func globRegexp(g string) (*regexp.Regexp, error) {
	g = strings.TrimPrefix(g, "./")
	if g == "" || strings.HasPrefix(g, "!") || strings.HasPrefix(g, "/") {
		return nil, errGlob
	}
	re, err := globPart(g)
	if err != nil {
		return nil, err
	}
	return regexp.Compile("^" + re + "$")
}

// globPart translates a glob (or one alternative of a group) without
// anchoring it.
func globPart(g string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(g); {
		c := g[i]
		switch {
		case c == '*' && strings.HasPrefix(g[i:], "**") && (i == 0 || g[i-1] == '/') && (i+2 == len(g) || g[i+2] == '/'):
			if i+2 == len(g) {
				b.WriteString(".*")
				i += 2
			} else {
				b.WriteString("(?:.*/)?")
				i += 3
			}
		case (c == '?' || c == '@') && i+1 < len(g) && g[i+1] == '(':
			end := closing(g, i+1, '(', ')')
			if end < 0 {
				return "", errGlob
			}
			alts, err := globAlts(g[i+2:end], '|')
			if err != nil {
				return "", err
			}
			b.WriteString("(?:" + alts + ")")
			if c == '?' {
				b.WriteByte('?')
			}
			i = end + 1
		case (c == '*' || c == '+' || c == '!') && i+1 < len(g) && g[i+1] == '(':
			return "", errGlob
		case c == '*':
			for i < len(g) && g[i] == '*' {
				i++
			}
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
			i++
		case c == '{':
			end := closing(g, i, '{', '}')
			if end < 0 {
				return "", errGlob
			}
			alts, err := globAlts(g[i+1:end], ',')
			if err != nil {
				return "", err
			}
			b.WriteString("(?:" + alts + ")")
			i = end + 1
		case c == '[':
			end := strings.IndexByte(g[i+1:], ']')
			if end < 0 {
				return "", errGlob
			}
			class := g[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			if class == "" || strings.ContainsAny(class, "[\\") {
				return "", errGlob
			}
			b.WriteString("[" + class + "]")
			i += end + 2
		case c == '\\' || c == '(' || c == ')' || c == '|' || c == '}' || c == ']':
			return "", errGlob
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
			i++
		}
	}
	return b.String(), nil
}

// globAlts translates the alternatives of a group, split at sep outside
// nested groups, joined by "|".
func globAlts(s string, sep byte) (string, error) {
	var parts []string
	depth, from := 0, 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == sep && depth == 0 {
			p, err := globPart(s[from:i])
			if err != nil {
				return "", err
			}
			parts = append(parts, p)
			from = i + 1
			continue
		}
		switch s[i] {
		case '{', '(':
			depth++
		case '}', ')':
			depth--
		}
	}
	return strings.Join(parts, "|"), nil
}

// closing returns the index of the bracket that closes the one at i, -1
// when there is none.
func closing(s string, i int, open, close byte) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}
