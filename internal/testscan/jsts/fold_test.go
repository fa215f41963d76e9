package jsts

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFoldStrings(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"plus", `const u = new URL("https://x/#a" + '?#');`, []string{`"https://x/#a?#"`}},
		{"template", "f(`ab` + \"cd\", 3)", []string{`"abcd"`}},
		{"chain", `s = "a" + "b" + "c" + x`, []string{`"abc"`}},
		{"after a value", `s = x + "a" + "b"`, []string{`"ab"`}},
		{"return", `return "a" + "b"`, []string{`"ab"`}},
		{"method binds first", `s = "a" + "b".repeat(2)`, nil},
		{"times binds first", `s = x * "a" + "b"`, nil},
		{"index binds first", `s = "a" + "bc"[0]`, nil},
		{"substitution", "s = \"a\" + `${b}`", nil},
		{"lone", `expect(x).toBe("a")`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := newTree(tt.src, false)
			var got []string
			for i := 0; i < len(tr.toks); i++ {
				if v, next, ok := tr.foldStrings(i, len(tr.toks)); ok {
					got = append(got, v)
					i = next - 1
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}
