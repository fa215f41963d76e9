package python

import "strings"

// A test's literals are the values it writes, not how it spells them: a URL
// built as "https://x/#frag" + "?#" is the literal "https://x/#frag?#" that
// the same case written as one string, or as a table row, holds. So a
// chain of constant strings joined by + (or written side by side, which
// Python joins when it reads them) counts as one literal, the value Python
// computes, where nothing binds tighter to one of its ends ("a" + "%s" % x,
// x * "a" + "b", "a" + "b".upper() are left apart).

// literalTexts returns the canonical texts of the string and number
// literals of a statement's tokens, in order, each chain of constant strings
// folded into the one string it makes.
func literalTexts(toks []token, out []string, limit int) []string {
	for i := 0; i < len(toks) && len(out) < limit; i++ {
		t := toks[i]
		if t.kind != tkString && t.kind != tkNumber {
			continue
		}
		if t.kind == tkString {
			if v, next, ok := foldValue(toks, i); ok {
				out = append(out, v.canon)
				i = next - 1
				continue
			}
		}
		out = append(out, canonText(t))
	}
	return out
}

// bindsTighter are the operators that take an operand next to them before
// a + does.
var bindsTighter = map[string]bool{
	"*": true, "/": true, "//": true, "%": true, "@": true, "**": true,
	"~": true, "-": true, ".": true, "[": true, "(": true,
}

// foldValue reads the chain of constant strings that starts at toks[i]:
// string atoms (strings side by side) joined by +. It returns the value and
// the index after the chain when the chain joins at least two strings of
// one kind (all bytes or all text, no f-strings) and no operator next to it
// binds one of its ends first.
func foldValue(toks []token, i int) (pyValue, int, bool) {
	if i > 0 && toks[i-1].kind == tkOp && bindsTighter[toks[i-1].text] && toks[i-1].text != "(" && toks[i-1].text != "[" {
		return pyValue{}, i, false
	}
	var b strings.Builder
	parts, isBytes := 0, false
	j := i
	for {
		// One atom: strings side by side.
		start := j
		for j < len(toks) && toks[j].kind == tkString {
			s := parseStringToken(toks[j].text)
			if s.format || parts > 0 && s.bytes != isBytes {
				return pyValue{}, i, false
			}
			isBytes = s.bytes
			b.WriteString(s.value())
			parts++
			j++
		}
		if j == start {
			return pyValue{}, i, false // a + not followed by a string
		}
		if j+1 < len(toks) && isOp(toks[j], "+") && toks[j+1].kind == tkString {
			j++
			continue
		}
		break
	}
	if parts < 2 || j < len(toks) && toks[j].kind == tkOp && bindsTighter[toks[j].text] {
		return pyValue{}, i, false
	}
	return stringResult(b.String(), isBytes), j, true
}
