package python

import (
	"fmt"
	"testing"
)

func TestDefParams(t *testing.T) {
	for src, want := range map[string]string{
		"def check(cases):\n    pass\n":                                         "[cases]",
		"async def check(self, cases: list[tuple[str, int]] = ()):\n    pass\n": "[self cases]",
		"def f(a, *args, b=1, **kw):\n    pass\n":                               "[a args b kw]",
		"def f(a, /, b, *, c):\n    pass\n":                                     "[a b c]",
		"def f():\n    pass\n":                                                  "[]",
	} {
		toks, _, _ := lex(src)
		root, _ := buildTree(toks)
		if len(root.body) == 0 {
			t.Fatalf("%q: no statement", src)
		}
		if got := fmt.Sprint(root.body[0].defParams()); got != want {
			t.Errorf("defParams(%q) = %s, want %s", src, got, want)
		}
	}
}
