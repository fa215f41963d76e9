package analyze

import (
	"strings"
	"testing"
)

func TestValueStructure(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		same  bool
		names int // of a
	}{
		// serde-rs/serde 1a9ffdbd0c: the fixture renamed, the tokens kept.
		{`&[Token::Map{len:Some(1)},Token::Str("t"),Token::Str("A"),Token::MapEnd]`,
			`&[Token::Map{len:Some(1)},Token::Str("tag"),Token::Str("NewtypeUnit"),Token::MapEnd]`, true, 10},
		{`&[Token::Map{len:Some(1)},Token::Str("t"),Token::Str("A"),Token::MapEnd]`,
			`&[Token::Map{len:Some(1)},Token::Str("t"),Token::MapEnd]`, false, 10},
		{`&[Token::Str("t")]`, `&[Token::BorrowedStr("t")]`, false, 2},
		{`Config{Name:"a",Port:"80",Tags:[]string{"x"}}`, `Config{Name:"web",Port:"8080",Tags:[]string{"prod"}}`, true, 5},
		{`Config{Name:"a",Port:"80",Tags:[]string{"x"}}`, `Config{Name:"a",Port:"80"}`, false, 5},
		{`{type:'Tag',name:'a',attrs:{}}`, `{type:'Element',name:'main',attrs:{}}`, true, 3},
		// Variables and numbers are values; b"t" is a Rust byte string.
		{`Point{x:a,y:1.5e3}`, `Point{x:b,y:0x2}`, true, 3},
		{`Token::Bytes(b"t")`, `Token::Bytes(b"content")`, true, 2},
		{`"a"`, `"b"`, true, 0},
		{`Some(x)`, `Some(y)`, true, 1},
	} {
		sa, na := valueStructure(c.a)
		sb, _ := valueStructure(c.b)
		if (sa == sb) != c.same || na != c.names {
			t.Errorf("valueStructure(%s) = %q (%d names), of %s = %q: same %v, want %v with %d names", c.a, sa, na, c.b, sb, sa == sb, c.same, c.names)
		}
	}
}

// FuzzValueStructure checks that what a literal holds never shapes the
// structure, and that no input panics.
func FuzzValueStructure(f *testing.F) {
	for _, s := range []string{
		`&[Token::Map{len:Some(1)},Token::Str("t"),Token::MapEnd]`,
		`Config{Name:"a",Tags:[]string{"x"}}`,
		`{type:'Tag',name:'a\'b',attrs:{}}`, "`tpl ${x}`", `"unclosed`, `b"\\"`, `é::ß(1)`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, names := valueStructure(s)
		if names < 0 || names > len(s) {
			t.Fatalf("valueStructure(%q): %d names", s, names)
		}
		// The same expression with every literal's contents replaced.
		var b strings.Builder
		last := 0
		literalSpans(s, func(start, end int) {
			b.WriteString(s[last : start+1])
			b.WriteString("zz")
			last = end
		})
		b.WriteString(s[last:])
		if again, _ := valueStructure(b.String()); again != got {
			t.Fatalf("literal contents shape the structure: %q -> %q, %q -> %q", s, got, b.String(), again)
		}
	})
}
