package guard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/agent"
	"github.com/ralph-gate/ralph-gate/internal/agent/claude"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// payload is a PreToolUse call of Claude Code's tool, decoded as the hook
// decodes it.
func payload(t testing.TB, root, tool string, input any) *agent.Call {
	t.Helper()
	data, err := json.Marshal(map[string]any{"cwd": root, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input})
	if err != nil {
		t.Fatal(err)
	}
	c, err := claude.Client{}.Decode(agent.PreToolUse, data)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestPreToolUseFiles(t *testing.T) {
	root := newTree(t)
	outside := t.TempDir()
	if err := os.Symlink(filepath.Join(root, ".aiwg", "ralph"), filepath.Join(root, "notes")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, ".aiwg", "ralph"), filepath.Join(outside, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	testFile := filepath.Join(root, "pkg", "calc_test.go")
	assertion := "\tif got := Add(2, 2); got != 4 {\n\t\tt.Fatalf(\"Add(2, 2) = %d, want 4\", got)\n\t}\n"
	tests := []struct {
		name, tool string
		input      any
		deny       string
	}{
		{name: "edit removes an assertion", tool: "Edit", input: map[string]any{"file_path": testFile, "old_string": assertion, "new_string": ""}, deny: "assertion_weakening"},
		{name: "edit adds an assertion", tool: "Edit", input: map[string]any{"file_path": testFile, "old_string": assertion, "new_string": assertion + "\tif got := Add(0, 0); got != 0 {\n\t\tt.Fatal(got)\n\t}\n"}},
		// A rewritten expected value is medium (an intended change looks the
		// same): it passes fail-on high (TestPreToolUseFailOn).
		{name: "edit rewrites the expected value", tool: "Edit", input: map[string]any{"file_path": testFile, "old_string": "got != 4 {", "new_string": "got != 5 {"}},
		{name: "edit skips a test (relative path)", tool: "Edit", input: map[string]any{"file_path": "pkg/calc_test.go", "old_string": "func TestAdd(t *testing.T) {\n", "new_string": "func TestAdd(t *testing.T) {\n\tt.Skip(\"later\")\n"}, deny: "test_skipping"},
		{name: "edit that would fail changes nothing", tool: "Edit", input: map[string]any{"file_path": testFile, "old_string": "not in the file", "new_string": ""}},
		{name: "ambiguous edit without replace_all", tool: "Edit", input: map[string]any{"file_path": testFile, "old_string": "t.Fatalf", "new_string": "t.Logf"}},
		{name: "replace_all weakens", tool: "Edit", input: map[string]any{"file_path": testFile, "old_string": "t.Fatalf", "new_string": "t.Logf", "replace_all": true}, deny: "at or above the fail-on"},
		{name: "write empties a test file", tool: "Write", input: map[string]any{"file_path": testFile, "content": "package pkg\n"}, deny: "test_deletion"},
		{name: "write a new test file", tool: "Write", input: map[string]any{"file_path": filepath.Join(root, "pkg", "more_test.go"), "content": "package pkg\n\nimport \"testing\"\n\nfunc TestMore(t *testing.T) {\n\tif Add(1, 1) != 2 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n"}},
		{name: "write production code", tool: "Write", input: map[string]any{"file_path": filepath.Join(root, "pkg", "calc.go"), "content": calc + "\n// Sub subtracts.\nfunc Sub(a, b int) int { return a - b }\n"}},
		{name: "multiedit removes a test", tool: "MultiEdit", input: map[string]any{"file_path": testFile, "edits": []map[string]any{
			{"old_string": "func TestAddNegative", "new_string": "func testAddNegative"},
			{"old_string": "got != -2", "new_string": "got != -2 && false"},
		}}, deny: "at or above the fail-on"},
		{name: "multiedit with a failing edit", tool: "MultiEdit", input: map[string]any{"file_path": testFile, "edits": []map[string]any{
			{"old_string": "func TestAddNegative", "new_string": "func testAddNegative"},
			{"old_string": "nowhere", "new_string": "x"},
		}}},
		{name: "config", tool: "Write", input: map[string]any{"file_path": filepath.Join(root, ".ralph-gate.yml"), "content": "fail_on: none\n"}, deny: "gate's configuration"},
		{name: "config case", tool: "Write", input: map[string]any{"file_path": filepath.Join(root, ".Ralph-Gate.yml"), "content": "fail_on: none\n"}, deny: "gate's configuration"},
		{name: "aiwg.yml", tool: "Edit", input: map[string]any{"file_path": "aiwg.yml", "old_string": "", "new_string": "x"}, deny: "aiwg.yml"},
		{name: "loop state", tool: "Write", input: map[string]any{"file_path": filepath.Join(root, ".aiwg", "ralph", "loops", "ralph-x-12345678", "state.json"), "content": "{}"}, deny: "loop's state"},
		{name: "loop state via dotdot", tool: "Write", input: map[string]any{"file_path": filepath.Join(root, "pkg", "..", ".aiwg", "ralph", "x"), "content": "{}"}, deny: "loop's state"},
		{name: "loop state via a link in the repo", tool: "Write", input: map[string]any{"file_path": filepath.Join(root, "notes", "registry.json"), "content": "{}"}, deny: "loop's state"},
		{name: "loop state via a link outside", tool: "Write", input: map[string]any{"file_path": filepath.Join(outside, "elsewhere", "registry.json"), "content": "{}"}, deny: "loop's state"},
		{name: "claude settings", tool: "Write", input: map[string]any{"file_path": filepath.Join(root, ".claude", "settings.json"), "content": "{}"}, deny: "agent's hooks and permissions"},
		{name: "git hooks", tool: "Write", input: map[string]any{"file_path": filepath.Join(root, ".git", "hooks", "pre-push"), "content": "exit 0"}, deny: "git's own files"},
		{name: "outside the repository", tool: "Write", input: map[string]any{"file_path": filepath.Join(outside, "calc_test.go"), "content": ""}},
		{name: "outside through a link", tool: "Write", input: map[string]any{"file_path": filepath.Join(root, "out", "x_test.go"), "content": ""}},
		{name: "ignored path", tool: "Write", input: map[string]any{"file_path": filepath.Join(root, "node_modules", "dep", "index.test.js"), "content": ""}},
		{name: "not source", tool: "Write", input: map[string]any{"file_path": filepath.Join(root, "docs", "notes.md"), "content": ""}},
		{name: "bash", tool: "Bash", input: map[string]any{"command": "git rm pkg/calc_test.go"}, deny: "git rm"},
		{name: "other tool", tool: "Read", input: map[string]any{"file_path": testFile}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newGuard(t, root)
			d, err := g.PreToolUse(payload(t, root, tc.tool, tc.input))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.deny == "" && d.Deny:
				t.Errorf("denied: %s", d.Reason)
			case tc.deny != "" && !d.Deny:
				t.Errorf("allowed, want denied (%s)", tc.deny)
			case tc.deny != "" && !strings.Contains(d.Reason, tc.deny):
				t.Errorf("reason %q does not say %q", d.Reason, tc.deny)
			}
			if d.Deny && strings.Contains(d.Reason, "\n") {
				t.Errorf("reason has more than one line: %q", d.Reason)
			}
		})
	}
	// Nothing was written.
	if data, _ := os.ReadFile(testFile); string(data) != calcTest {
		t.Error("the guard changed the file it judged")
	}
}

func TestPreToolUseFixtures(t *testing.T) {
	root := newTree(t)
	if err := os.WriteFile(filepath.Join(root, "pkg", "calc_test.go"), []byte(calcTest), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		deny bool
	}{
		{"pre-tool-use-write.json", true},
		{"pre-tool-use-edit.json", true},
		{"pre-tool-use-multiedit.json", false},
		{"pre-tool-use-bash.json", true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			p, err := claude.Client{}.Decode(agent.PreToolUse, fixture(t, tc.file, root))
			if err != nil {
				t.Fatal(err)
			}
			d, err := newGuard(t, root).PreToolUse(p)
			if err != nil {
				t.Fatal(err)
			}
			if d.Deny != tc.deny {
				t.Errorf("deny = %v (%s), want %v", d.Deny, d.Reason, tc.deny)
			}
		})
	}
}

func TestPreToolUseFailOn(t *testing.T) {
	root := newTree(t)
	in := map[string]any{"file_path": filepath.Join(root, "pkg", "calc_test.go"), "old_string": "got != 4 {", "new_string": "got != 5 {"}
	g := newGuard(t, root)
	g.FailOn = gate.FailOn(gate.SeverityMedium)
	d, err := g.PreToolUse(payload(t, root, "Edit", in))
	if err != nil {
		t.Fatal(err)
	}
	if !d.Deny || !strings.Contains(d.Reason, "[medium assertion_weakening]") {
		t.Errorf("fail-on medium: got %+v, want a medium assertion_weakening denial", d)
	}
}

func TestPreToolUseNotARegularFile(t *testing.T) {
	root := newTree(t)
	d, err := newGuard(t, root).PreToolUse(payload(t, root, "Write", map[string]any{"file_path": filepath.Join(root, "pkg"), "content": "x"}))
	if err != nil || d.Deny {
		t.Errorf("a Write to a directory (which fails by itself): %+v, %v", d, err)
	}
}
