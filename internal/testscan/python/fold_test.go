package python

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLiteralTexts(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"plus", `url = URL("https://x/#a" + "?#")`, []string{`"https://x/#a?#"`}},
		{"side by side", `x = f("ab" 'cd', 3)`, []string{`"abcd"`, "3"}},
		{"bytes", `assert r == b"a" + b"b"`, []string{`b"ab"`}},
		{"chain", `s = "a" + "b" + "c" + x`, []string{`"abc"`}},
		{"after a value", `s = x + "a" + "b"`, []string{`"ab"`}},
		{"format binds first", `s = "a" + "%s" % x`, []string{`"a"`, `"%s"`}},
		{"times binds first", `s = x * "a" + "b"`, []string{`"a"`, `"b"`}},
		{"method binds first", `s = "a" + "b".upper()`, []string{`"a"`, `"b"`}},
		{"index binds first", `s = "a" + "bc"[0]`, []string{`"a"`, `"bc"`, "0"}},
		{"f-string", `s = "a" + f"{b}"`, []string{`"a"`, `f"{b}"`}},
		{"mixed kinds", `s = "a" + b"b"`, []string{`"a"`, `b"b"`}},
		{"lone", `assert x == "a"`, []string{`"a"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks, _, _ := lex(tt.src)
			got := literalTexts(toks, nil, maxLiterals)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}

func TestEvalLiteralFoldsPlus(t *testing.T) {
	for src, want := range map[string]string{
		`"a" + "b"`:     `"ab"`,
		`b"a" b"b"`:     `b"ab"`,
		`("a" + "b")`:   `"ab"`,
		`"a" + x`:       "",
		`"a" + "b" * 2`: "",
	} {
		toks, _, _ := lex(src)
		for len(toks) > 0 && toks[len(toks)-1].kind == tkNewline {
			toks = toks[:len(toks)-1]
		}
		if got := evalLiteral(toks, nil).canon; got != want {
			t.Errorf("evalLiteral(%s) = %q, want %q", src, got, want)
		}
	}
}
