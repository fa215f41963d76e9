package guard

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigTestFile is a Go test file of about n lines: table tests, subtests and
// testify-free assertions, like a real package's.
func bigTestFile(n int) string {
	var b strings.Builder
	b.WriteString("package pkg\n\nimport \"testing\"\n\n")
	for i := 0; b.Len() == 0 || strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, `func TestCase%d(t *testing.T) {
	tests := []struct {
		name string
		a, b int
		want int
	}{
		{"small", %d, 1, %d},
		{"zero", 0, %d, %d},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Add(tc.a, tc.b); got != tc.want {
				t.Fatalf("Add(%%d, %%d) = %%d, want %%d", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

`, i, i, i+1, i, i)
	}
	return b.String()
}

// BenchmarkPreToolUseEdit is the guard's work on an Edit of a 2,000-line Go
// test file that adds an assertion (allowed) and one that deletes a test
// (denied): read the file, apply the edit, analyze current -> proposed.
// scripts/bench-guard.sh times the whole process.
func BenchmarkPreToolUseEdit(b *testing.B) {
	root := newTree(b)
	src := bigTestFile(2000)
	path := filepath.Join(root, "pkg", "big_test.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	add := "\t\t{\"zero\", 0, 1000, 1000},\n"
	cases := map[string]map[string]any{
		"add-assertion": {"file_path": path, "old_string": add, "new_string": add + "\t\t{\"more\", 1, 1000, 1001},\n"},
		"delete-test":   {"file_path": path, "old_string": "func TestCase1000(t *testing.T) {", "new_string": "func helper1000(t *testing.T) {"},
	}
	for name, in := range cases {
		raw, _ := json.Marshal(in)
		p := payload(b, root, "Edit", json.RawMessage(raw))
		b.Run(name, func(b *testing.B) {
			g := newGuard(b, root)
			for b.Loop() {
				if _, err := g.PreToolUse(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPreToolUseRead is the guard's work on the most frequent call
// there is, now that every tool reaches it: a Read of a source file
// (allowed), and one of the seal key (denied). scripts/bench-guard.sh times
// the whole process.
func BenchmarkPreToolUseRead(b *testing.B) {
	root := newTree(b)
	private := filepath.Join(b.TempDir(), "config")
	cases := map[string]string{
		"allowed":  filepath.Join(root, "pkg", "calc.go"),
		"seal-key": filepath.Join(private, sealKeyName),
	}
	for name, path := range cases {
		p := payload(b, root, "Read", map[string]any{"file_path": path})
		b.Run(name, func(b *testing.B) {
			g := newGuard(b, root)
			g.WS.SetPrivate(private)
			for b.Loop() {
				if _, err := g.PreToolUse(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
