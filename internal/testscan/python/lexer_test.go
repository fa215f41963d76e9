package python

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// kinds renders tokens as "kind:text" for comparison.
func kinds(src string) ([]string, bool) {
	toks, _, partial := lex(src)
	names := map[tokKind]string{tkName: "N", tkNumber: "0", tkString: "S", tkOp: "O", tkNewline: "NL", tkIndent: "IN", tkDedent: "DE"}
	var out []string
	for _, t := range toks {
		out = append(out, names[t.kind]+":"+t.text)
	}
	return out, partial
}

func TestLex(t *testing.T) {
	tests := []struct {
		name        string
		src         string
		want        []string
		wantPartial bool
	}{
		{"prefixes", `x = Rb'\d' + f"a" + BR"b" + u'c' + rf'{x}'`, []string{"N:x", "O:=", `S:Rb'\d'`, "O:+", `S:f"a"`, "O:+", `S:BR"b"`, "O:+", `S:u'c'`, "O:+", `S:rf'{x}'`, "NL:"}, false},
		{"nested f-string quotes (3.12)", `s = f"{d["k"]!r:>{w}} {'}'}" + x`, []string{"N:s", "O:=", `S:f"{d["k"]!r:>{w}} {'}'}"`, "O:+", "N:x", "NL:"}, false},
		{"escaped braces and quotes", `s = f'{{x}} it\'s'`, []string{"N:s", "O:=", `S:f'{{x}} it\'s'`, "NL:"}, false},
		{"triple quotes span lines", "s = '''a\n'b'\n'''\ny", []string{"N:s", "O:=", "S:'''a\n'b'\n'''", "NL:", "N:y", "NL:"}, false},
		{"comment is not code", "x = 1  # def test_x(): pass\n", []string{"N:x", "O:=", "0:1", "NL:"}, false},
		{"implicit continuation", "f(a,\n  b)\nc", []string{"N:f", "O:(", "N:a", "O:,", "N:b", "O:)", "NL:", "N:c", "NL:"}, false},
		{"explicit continuation", "x = 1 + \\\n    2\n", []string{"N:x", "O:=", "0:1", "O:+", "0:2", "NL:"}, false},
		{"indent and dedent", "if x:\n    y\n\tz\nw", []string{"N:if", "N:x", "O::", "NL:", "IN:", "N:y", "NL:", "IN:", "N:z", "NL:", "DE:", "DE:", "N:w", "NL:"}, true},
		{"numbers", "1_000 0x1F 1.5e-3 .5 2j 1if", []string{"0:1_000", "0:0x1F", "0:1.5e-3", "0:.5", "0:2j", "0:1", "N:if", "NL:"}, false},
		{"operators", "a **= b // c != d -> e := f ...", []string{"N:a", "O:**=", "N:b", "O://", "N:c", "O:!=", "N:d", "O:->", "N:e", "O::=", "N:f", "O:...", "NL:"}, false},
		{"unterminated string ends at the line", "x = 'abc\ny = 2", []string{"N:x", "O:=", "S:'abc", "NL:", "N:y", "O:=", "0:2", "NL:"}, true},
		{"unterminated triple string is code", "x = \"\"\"abc\ny = 2", []string{"N:x", "O:=", `S:"""`, "N:abc", "NL:", "N:y", "O:=", "0:2", "NL:"}, true},
		{"unclosed bracket recovers at a statement", "f(a,\ndef g():\n    pass", []string{"N:f", "O:(", "N:a", "O:,", "NL:", "N:def", "N:g", "O:(", "O:)", "O::", "NL:", "IN:", "N:pass", "NL:", "DE:"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, partial := kinds(tt.src)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("tokens (-want +got):\n%s", diff)
			}
			if partial != tt.wantPartial {
				t.Errorf("partial = %v, want %v", partial, tt.wantPartial)
			}
		})
	}
}

func TestStringValues(t *testing.T) {
	tests := []struct {
		tok, value, canon string
	}{
		{`'a\tb'`, "a\tb", `"a\tb"`},
		{`"a\tb"`, "a\tb", `"a\tb"`},
		{`r'a\tb'`, `a\tb`, `r"a\\tb"`},
		{`'''it's'''`, "it's", `"it's"`},
		{`'\x41\u00e9\101'`, "Aé" + "A", `"AéA"`},
		{`B"\x00"`, "\x00", `b"\x00"`},
		{`F'{x}'`, "{x}", `f"{x}"`},
	}
	for _, tt := range tests {
		s := parseStringToken(tt.tok)
		if got := s.value(); got != tt.value {
			t.Errorf("value(%s) = %q, want %q", tt.tok, got, tt.value)
		}
		if got := s.canonical(); got != tt.canon {
			t.Errorf("canonical(%s) = %s, want %s", tt.tok, got, tt.canon)
		}
	}
}

func TestPyFloatRepr(t *testing.T) {
	for in, want := range map[float64]string{1: "1.0", 0.1: "0.1", 1e16: "1e+16", 1e15: "1000000000000000.0", 1.5e-5: "1.5e-05", 0.0001: "0.0001", -2.5: "-2.5"} {
		if got := pyFloatRepr(in); got != want {
			t.Errorf("pyFloatRepr(%v) = %q, want %q", in, got, want)
		}
	}
}
