package python

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTokenize(t *testing.T) {
	src := "if a < b:  # x < y\n    s = f\"{a + b}\"\n"
	toks, ok := Tokenize(src)
	if !ok {
		t.Fatal("Tokenize: not ok")
	}
	var got []string
	for _, tk := range toks {
		got = append(got, src[tk.Off:tk.End])
	}
	want := []string{"if", "a", "<", "b", ":", "", "", "s", "=", `f"{a + b}"`, "", ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Tokenize texts (-want +got):\n%s", diff)
	}
	if toks[2].Kind != TokenOp || toks[2].Line != 1 || toks[9].Kind != TokenString || toks[9].Line != 2 {
		t.Errorf("Tokenize kinds or lines: %+v", toks)
	}
	if _, ok := Tokenize("f(a,\n"); ok {
		t.Error("Tokenize of an unclosed bracket: ok")
	}
}
