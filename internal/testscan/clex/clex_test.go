package clex

import (
	"strings"
	"testing"
	"unsafe"
)

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
		ts := []Token{{Kind: ident, Text: name, Line: 1}, {Kind: punct, Text: "(", Line: 1}, {Kind: ident, Text: "a", Line: 1}}
		if comma {
			ts = append(ts, Token{Kind: punct, Text: ",", Line: 1})
		}
		return append(ts, Token{Kind: punct, Text: ")", Line: 1})
	}
	base := Fingerprint(toks("testA", false), "testA", ident, punct)
	if got := Fingerprint(toks("testB", true), "testB", ident, punct); got != base {
		t.Errorf("a renamed test with a trailing comma: %s, want %s", got, base)
	}
	if got := Fingerprint(toks("other", false), "testA", ident, punct); got == base {
		t.Error("a different call has the same fingerprint")
	}
}

// TestTokenSize: Off fills the padding after Kind, so on a 64-bit platform it
// costs the languages that leave it 0 (Java, Rust) no memory.
func TestTokenSize(t *testing.T) {
	type before struct {
		Kind Kind
		Text string
		Line int
	}
	if unsafe.Sizeof(uintptr(0)) == 8 && unsafe.Sizeof(Token{}) != unsafe.Sizeof(before{}) {
		t.Errorf("a Token takes %d bytes, %d without Off", unsafe.Sizeof(Token{}), unsafe.Sizeof(before{}))
	}
}

// TestOpens: a closer pops the nearest opener of its class, skipping at most
// skip others, and finds none beyond them.
func TestOpens(t *testing.T) {
	var s Opens
	if s.Top() != -1 {
		t.Fatal("Top of an empty stack")
	}
	s.Push(0, '(')
	s.Push(1, '[')
	s.Push(2, '[')
	if open, innermost := s.Close('[', 0); open != 2 || !innermost || s.Top() != 1 {
		t.Errorf("Close('[') = %d, %v; Top %d", open, innermost, s.Top())
	}
	if open, _ := s.Close('{', 5); open != -1 || s.Len() != 2 {
		t.Errorf("Close('{') = %d with %d open, want -1 with 2", open, s.Len())
	}
	if open, _ := s.Close('(', 0); open != -1 {
		t.Errorf("Close('(', 0) = %d past an opener it may not skip", open)
	}
	if open, innermost := s.Close('(', 1); open != 0 || innermost || s.Len() != 0 {
		t.Errorf("Close('(', 1) = %d, %v with %d open, want 0, false with 0", open, innermost, s.Len())
	}
}

// TestJoinTrailingComma: a trailing comma before ] or } is formatting (a
// literal broken over lines), one before ) is not ((x,) is a tuple).
func TestJoinTrailingComma(t *testing.T) {
	const ident, punct Kind = 1, 5
	p := func(s string) Token { return Token{Kind: punct, Text: s} }
	id := func(s string) Token { return Token{Kind: ident, Text: s} }
	for _, c := range []struct {
		name string
		toks []Token
		want string
	}{
		{"struct literal", []Token{id("S"), p("{"), id("a"), p(":"), id("x"), p(","), p("}")}, "S{a:x}"},
		{"array", []Token{p("["), id("a"), p(","), id("b"), p(","), p("]")}, "[a,b]"},
		{"tuple", []Token{p("("), id("x"), p(","), p(")")}, "(x,)"},
		{"inner comma", []Token{p("["), id("a"), p(","), id("b"), p("]")}, "[a,b]"},
	} {
		if got := Join(c.toks, punct); got != c.want {
			t.Errorf("%s: Join = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestConstantIf: an if on a name bound once to a literal is spelled as the
// literal; bound twice, written, bound to an expression or any other
// condition is not.
func TestConstantIf(t *testing.T) {
	const ident, punct, num = Kind(1), Kind(2), Kind(3)
	tok := func(s string) Token {
		switch {
		case s[0] >= '0' && s[0] <= '9':
			return Token{Kind: num, Text: s, Line: 1}
		case s[0] == '_' || s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z':
			return Token{Kind: ident, Text: s, Line: 1}
		}
		return Token{Kind: punct, Text: s, Line: 1}
	}
	toks := func(s string) []Token {
		var out []Token
		for _, f := range strings.Fields(s) {
			out = append(out, tok(f))
		}
		return out
	}
	lit := func(t Token) bool { return t.Kind == num || t.Text == "true" || t.Text == "false" }
	for _, c := range []struct{ file, cond, want string }{
		{"const SLOW = false ;", "if ( SLOW )", "if (false /* SLOW */)"},
		{"const SLOW : bool = false ;", "if SLOW", "if false /* SLOW */"},
		{"boolean slow = 0 ;", "if ( ! slow )", "if (!0 /* slow */)"},
		{"let slow = false ; slow = true ;", "if slow", ""},
		{"let n = 0 ; n ++ ;", "if n", ""},
		{"let slow = f ( ) ;", "if slow", ""},
		{"const SLOW = false ;", "if ( SLOW && x )", ""},
		{"const SLOW = false ;", "while ( SLOW )", ""},
	} {
		all := toks(c.file)
		if got := ConstantIf(toks(c.cond), func() []Token { return all }, ident, punct, lit); got != c.want {
			t.Errorf("%q / %q: %q, want %q", c.file, c.cond, got, c.want)
		}
	}
}
