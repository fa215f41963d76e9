package jsts

import (
	"strconv"
	"strings"
)

// A test's literals are the values it writes, not how it spells them: a
// URL built as "https://x/#frag" + "?#" is the literal "https://x/#frag?#"
// that the same case written as one string, or as a table row, holds. So a
// chain of constant strings (quoted, or templates without substitutions)
// joined by + counts as one literal, the value the engine computes, where
// nothing binds tighter to one of its ends ("a" + "b".repeat(2), x * "a" +
// "b" are left apart).

// tighterThanPlus are the punctuators that take an operand next to them
// before a + does.
var tighterThanPlus = map[string]bool{
	"*": true, "/": true, "%": true, "**": true, "-": true, "!": true, "~": true,
	".": true, "?.": true, "[": true, "(": true, "++": true, "--": true,
}

// foldStrings reads the chain of constant strings joined by + that starts
// at token i, before token to. It returns the normalized literal of its
// value and the index after it when the chain joins at least two strings
// and no operator next to it binds one of its ends first.
func (t *tree) foldStrings(i, to int) (string, int, bool) {
	constant := func(j int) bool {
		k := t.kind(j)
		return j < to && (k == tkString || k == tkTemplate)
	}
	if !constant(i) || i > 0 && t.kind(i-1) == tkPunct && tighterThanPlus[t.toks[i-1].Text] &&
		!t.punct(i-1, "(") && !t.punct(i-1, "[") {
		return "", i, false
	}
	if t.kind(i-1) == tkIdent && !keywordBefore(t.toks[i-1].Text) {
		return "", i, false // a tagged template, or not an operand position
	}
	var b strings.Builder
	j, parts := i, 0
	for {
		b.WriteString(t.toks[j].val)
		parts++
		j++
		if j+1 < to && t.punct(j, "+") && constant(j+1) {
			j++
			continue
		}
		break
	}
	if parts < 2 || j < to && t.kind(j) == tkPunct && tighterThanPlus[t.toks[j].Text] && !t.punct(j, "(") {
		return "", i, false
	}
	if j < to && (t.punct(j, "(") || t.kind(j) == tkTemplate || t.kind(j) == tkTemplateHead) {
		return "", i, false
	}
	return strconv.Quote(b.String()), j, true
}

// keywordBefore reports whether an identifier before a string leaves it an
// operand (return "a" + "b"), not a tag or a property.
func keywordBefore(s string) bool {
	switch s {
	case "return", "typeof", "in", "of", "case", "yield", "await", "void", "throw", "delete", "else", "do":
		return true
	}
	return false
}
