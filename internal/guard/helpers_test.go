package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/agent/claude"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

const calcTest = `package pkg

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 2); got != 4 {
		t.Fatalf("Add(2, 2) = %d, want 4", got)
	}
}

func TestAddNegative(t *testing.T) {
	if got := Add(-1, -1); got != -2 {
		t.Fatalf("Add(-1, -1) = %d, want -2", got)
	}
}
`

const calc = "package pkg\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"

// newTree makes a work tree with Go, Python and TypeScript tests, a
// node_modules tree, loop state and the gate's configuration.
func newTree(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"pkg/calc.go":                          calc,
		"pkg/calc_test.go":                     calcTest,
		"tests/test_api.py":                    "def test_api():\n    assert 1 == 1\n",
		"src/app.ts":                           "export const x = 1;\n",
		"src/app.test.ts":                      "test('x', () => { expect(1).toBe(1); });\n",
		"node_modules/dep/index.test.js":       "test('dep', () => {});\n",
		"build/out.txt":                        "x\n",
		"docs/notes.md":                        "notes\n",
		".aiwg/ralph/registry.json":            "{}\n",
		".aiwg/ralph/loops/ralph-x-12345678/s": "{}\n",
		".ralph-gate.yml":                      "fail_on: high\n",
		".git/HEAD":                            "ref: refs/heads/main\n",
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func newGuard(t testing.TB, root string) *Guard {
	t.Helper()
	ws := NewWorkspace(root, filepath.Join(root, ".git"), root, config.Default())
	home := filepath.Join(filepath.Dir(root), "home")
	ws.SetClientFiles(claude.Client{}.Own(root, home, func(string) string { return "" }), home)
	return &Guard{WS: ws, FailOn: gate.FailOn(gate.SeverityHigh)}
}

// fixture reads a testdata payload with @ROOT@ replaced.
func fixture(t testing.TB, name, root string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "agent", "claude", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return []byte(strings.ReplaceAll(string(data), "@ROOT@", filepath.ToSlash(root)))
}

// fakeHistory says every revision but the ones in after is before the
// baseline.
type fakeHistory struct{ after map[string]bool }

func (f fakeHistory) BeforeBaseline(rev string) (bool, string, error) {
	return !f.after[rev], "abc1234", nil
}
