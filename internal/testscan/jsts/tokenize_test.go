package jsts

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTokenize(t *testing.T) {
	src := "const a = x < y ? <p className=\"k\">a > b {x > 1}</p> : `${x < 1}`; // a < b\n"
	toks, ok := Tokenize(src, true)
	if !ok {
		t.Fatal("Tokenize: not ok")
	}
	var got []string
	for _, tk := range toks {
		s := tk.Text
		if tk.Markup {
			s = "M:" + s
		}
		got = append(got, s)
	}
	want := []string{
		"const", "a", "=", "x", "<", "y", "?", "M:<", "M:p", "M:className", "M:=", `M:"k"`, "M:>",
		"M:a > b ", "M:{", "x", ">", "1", "}", "M:</", "M:p", "M:>", ":", "`${", "x", "<", "1", "}`", ";",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Tokenize (-want +got):\n%s", diff)
	}
	if _, ok := Tokenize("const s = 'abc", false); ok {
		t.Error("Tokenize of an unterminated string: ok")
	}
}
