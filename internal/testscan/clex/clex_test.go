package clex

import "testing"

func TestIdent(t *testing.T) {
	java, rust := Ident{Extra: "$"}, Ident{}
	for _, c := range []struct {
		s                  string
		javaStart, rsStart bool
	}{{"$x", true, false}, {"_x", true, true}, {"ä", true, true}, {"9", false, false}, {"x", true, true}} {
		if got := java.Start(c.s, 0); got != c.javaStart {
			t.Errorf("java.Start(%q) = %v", c.s, got)
		}
		if got := rust.Start(c.s, 0); got != c.rsStart {
			t.Errorf("rust.Start(%q) = %v", c.s, got)
		}
	}
	if !rust.Part("x9", 1) || rust.Part("x-", 1) {
		t.Error("Part: a digit goes on an identifier, a dash does not")
	}
}

// TestFingerprint: the test's own name and a trailing comma do not change
// a fingerprint; anything else does.
func TestFingerprint(t *testing.T) {
	const ident, punct Kind = 1, 5
	toks := func(name string, comma bool) []Token {
		ts := []Token{{ident, name, 1}, {punct, "(", 1}, {ident, "a", 1}}
		if comma {
			ts = append(ts, Token{punct, ",", 1})
		}
		return append(ts, Token{punct, ")", 1})
	}
	base := Fingerprint(toks("testA", false), "testA", ident, punct)
	if got := Fingerprint(toks("testB", true), "testB", ident, punct); got != base {
		t.Errorf("a renamed test with a trailing comma: %s, want %s", got, base)
	}
	if got := Fingerprint(toks("other", false), "testA", ident, punct); got == base {
		t.Error("a different call has the same fingerprint")
	}
}
