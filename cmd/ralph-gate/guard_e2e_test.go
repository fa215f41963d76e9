//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The guard's hooks run as Claude Code runs them: the built binary, the hook
// JSON on standard input, the decision on standard output.

// hookPayload builds a hook input of the documented shape
// (internal/guard/testdata/README.md).
func hookPayload(t *testing.T, event, cwd, tool string, input any, extra map[string]any) string {
	t.Helper()
	p := map[string]any{
		"session_id": "e2e", "transcript_path": "/tmp/transcript.jsonl", "cwd": cwd,
		"permission_mode": "default", "hook_event_name": event,
	}
	if tool != "" {
		p["tool_name"], p["tool_input"], p["tool_use_id"] = tool, input, "toolu_e2e"
	}
	for k, v := range extra {
		p[k] = v
	}
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// preToolUse runs the PreToolUse hook and returns the denial's reason ("" for
// none). Any exit but 0 fails the test.
func preToolUse(t *testing.T, dir, payload string) string {
	t.Helper()
	res := runGate(t, dir, payload, "guard", "pre-tool-use")
	if res.code != 0 {
		t.Fatalf("pre-tool-use: exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
	if strings.TrimSpace(res.stdout) == "" {
		return ""
	}
	var out struct {
		HookSpecificOutput struct {
			HookEventName            string `json:"hookEventName"`
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
		t.Fatalf("pre-tool-use output is not JSON: %v\n%s", err, res.stdout)
	}
	h := out.HookSpecificOutput
	if h.HookEventName != "PreToolUse" || h.PermissionDecision != "deny" || h.PermissionDecisionReason == "" {
		t.Fatalf("pre-tool-use output is not a denial: %s", res.stdout)
	}
	return h.PermissionDecisionReason
}

// guardModule is a Go module with tests in Go, Python and TypeScript, and a
// configuration committed at HEAD.
func guardModule(t *testing.T, config string) *repo {
	t.Helper()
	r := newRepo(t)
	r.write("go.mod", "module example.com/calc\n\ngo 1.26\n")
	r.write("calc.go", loopCalcSrc)
	r.write("calc_test.go", loopCalcTest)
	r.write("tests/test_api.py", "def test_api():\n    assert 1 == 1\n")
	r.write("web/app.test.ts", "test('x', () => { expect(1).toBe(1); });\n")
	r.write(".gitignore", "node_modules/\n")
	r.write("node_modules/dep/index.test.js", "test('dep', () => {});\n")
	if config != "" {
		r.write(".ralph-gate.yml", config)
	}
	r.commit("base")
	return r
}

func TestGuardPreToolUseFiles(t *testing.T) {
	t.Parallel()
	r := guardModule(t, "fail_on: medium\n")
	// The working tree's configuration is the agent's: it does not count.
	r.write(".ralph-gate.yml", "fail_on: none\n")
	if err := os.Symlink(filepath.Join(r.dir, ".aiwg", "ralph"), filepath.Join(r.dir, "scratch")); err != nil {
		t.Fatal(err)
	}
	testFile := filepath.Join(r.dir, "calc_test.go")
	sub := filepath.Join(r.dir, "tests")
	tests := []struct {
		name, cwd, tool string
		input           map[string]any
		deny            string
	}{
		{name: "edit deletes a test", tool: "Edit", input: map[string]any{"file_path": testFile,
			"old_string": "func TestMul(t *testing.T) {\n\tif got := Mul(2, 3); got != 6 {\n\t\tt.Errorf(\"Mul(2, 3) = %d, want 6\", got)\n\t}\n}\n", "new_string": ""},
			deny: "test_deletion"},
		{name: "edit adds an assertion", tool: "Edit", input: map[string]any{"file_path": testFile,
			"old_string": "\tif got := Mul(2, 3); got != 6 {", "new_string": "\tif got := Mul(0, 3); got != 0 {\n\t\tt.Errorf(\"Mul(0, 3) = %d, want 0\", got)\n\t}\n\tif got := Mul(2, 3); got != 6 {"}},
		{name: "expected value rewritten, fail_on medium from HEAD", tool: "Edit", input: map[string]any{"file_path": testFile,
			"old_string": "got != 5 {", "new_string": "got != -1 {"}, deny: "assertion_weakening"},
		{name: "fix the code", tool: "Edit", input: map[string]any{"file_path": filepath.Join(r.dir, "calc.go"),
			"old_string": "return a - b", "new_string": "return a + b"}},
		{name: "multiedit skips a test", tool: "MultiEdit", input: map[string]any{"file_path": "calc_test.go", "edits": []map[string]any{
			{"old_string": "func TestAdd(t *testing.T) {\n", "new_string": "func TestAdd(t *testing.T) {\n\tt.Skip(\"broken\")\n"},
		}}, deny: "test_skipping"},
		{name: "write empties a python test, relative to a subdirectory", cwd: sub, tool: "Write", input: map[string]any{"file_path": "test_api.py", "content": ""}, deny: "test_deletion"},
		{name: "write a new test", tool: "Write", input: map[string]any{"file_path": filepath.Join(r.dir, "more_test.go"), "content": "package calc\n\nimport \"testing\"\n\nfunc TestMore(t *testing.T) {\n\tif Mul(1, 1) != 1 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n"}},
		{name: "config", tool: "Write", input: map[string]any{"file_path": filepath.Join(r.dir, ".ralph-gate.yml"), "content": "fail_on: none\n"}, deny: ".ralph-gate.yml"},
		{name: "aiwg.yml", tool: "Write", input: map[string]any{"file_path": "aiwg.yml", "content": "x: 1\n"}, deny: "aiwg.yml"},
		{name: "loop state", tool: "Write", input: map[string]any{"file_path": filepath.Join(r.dir, ".aiwg", "ralph", "loops", "x", "state.json"), "content": "{}"}, deny: "loop's state"},
		{name: "loop state through a symlink", tool: "Write", input: map[string]any{"file_path": filepath.Join(r.dir, "scratch", "registry.json"), "content": "{}"}, deny: "loop's state"},
		{name: "the guard's own settings", tool: "Edit", input: map[string]any{"file_path": ".claude/settings.json", "old_string": "", "new_string": "{}"}, deny: "agent's hooks and permissions"},
		{name: "outside the repository", tool: "Write", input: map[string]any{"file_path": filepath.Join(t.TempDir(), "x_test.go"), "content": ""}},
		{name: "ignored tree", tool: "Write", input: map[string]any{"file_path": filepath.Join(r.dir, "node_modules", "dep", "index.test.js"), "content": ""}},
		{name: "a tool the guard does not judge", tool: "Read", input: map[string]any{"file_path": testFile}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cwd := tc.cwd
			if cwd == "" {
				cwd = r.dir
			}
			reason := preToolUse(t, r.dir, hookPayload(t, "PreToolUse", cwd, tc.tool, tc.input, nil))
			switch {
			case tc.deny == "" && reason != "":
				t.Errorf("denied: %s", reason)
			case tc.deny != "" && reason == "":
				t.Errorf("allowed, want denied (%s)", tc.deny)
			case tc.deny != "" && !strings.Contains(reason, tc.deny):
				t.Errorf("reason %q does not say %q", reason, tc.deny)
			}
		})
	}
	if data, _ := os.ReadFile(testFile); string(data) != loopCalcTest {
		t.Error("pre-tool-use changed the file it judged")
	}
}

func TestGuardPreToolUseBash(t *testing.T) {
	t.Parallel()
	r := guardModule(t, "")
	r.write("progress.txt", "1\n")
	r.commit("before the loop")
	r.write("check.sh", "exit 0\n")
	r.commit("check")
	startLoop(t, r, "--task", "guarded", "--completion", "sh check.sh", "--collect", "none")
	r.write("progress.txt", "2\n")
	r.commit("iteration 1")
	tests := []struct {
		cmd, deny string
	}{
		{cmd: "mv calc.go arith.go"},
		{cmd: "rm -rf node_modules"},
		{cmd: `git commit -m "x"`},
		{cmd: "mv calc_test.go arith_test.go"},
		{cmd: "go test ./... && git add -A && git commit -qm 'iteration 2'"},
		{cmd: "git reset --hard HEAD~1"}, // back to the baseline: still the loop's
		{cmd: "git push origin main"},
		{cmd: "ralph-gate status"},
		{cmd: "rm calc_test.go", deny: "rm would delete the test file calc_test.go"},
		{cmd: `git  rm "calc_test.go"`, deny: "git rm would delete"},
		{cmd: `/bin/rm -- tests/test_api.py`, deny: "tests/test_api.py"},
		{cmd: `\rm web/app.test.ts`, deny: "web/app.test.ts"},
		{cmd: "find . -name '*_test.go' -delete", deny: "find -delete"},
		{cmd: `find . -name "*.py" -exec rm {} \;`, deny: "tests/test_api.py"},
		{cmd: "git ls-files '*_test.go' | xargs git rm", deny: "git rm would delete"},
		{cmd: `sh -c 'cd tests && rm test_api.py'`, deny: "tests/test_api.py"},
		{cmd: `bash -c "env X=1 command rm calc_test.go"`, deny: "calc_test.go"},
		{cmd: "(true; rm calc_test.go) | cat", deny: "calc_test.go"},
		{cmd: "mv calc_test.go calc_test.go.disabled", deny: "out of the test paths"},
		{cmd: "git mv tests/test_api.py lib/api.py", deny: "out of the test paths"},
		{cmd: "git commit --no-verify -m x", deny: "--no-verify"},
		{cmd: "git commit -nm x", deny: "--no-verify"},
		{cmd: "git push --no-verify", deny: "--no-verify"},
		{cmd: "git -c core.hooksPath=/dev/null commit -m x", deny: "core.hooksPath"},
		{cmd: "git config core.hooksPath .none", deny: "core.hooksPath"},
		{cmd: "RALPH_GATE_SKIP=1 git push", deny: "RALPH_GATE_SKIP"},
		{cmd: "git push --force origin main", deny: "force push"},
		{cmd: "git push -f", deny: "force push"},
		{cmd: "git push --force-with-lease", deny: "force push"},
		{cmd: "git push origin +main", deny: "force push"},
		{cmd: "git tag -d ralph/x/iter-001", deny: "loop's tags"},
		{cmd: "git tag -f ralph/x/iter-001 HEAD", deny: "loop's tags"},
		{cmd: "git reset --hard HEAD~2", deny: "before the loop's baseline"},
		{cmd: "ralph-gate approve", deny: "human's decision"},
		{cmd: "ralph-gate reject", deny: "human's decision"},
		{cmd: "ralph-gate abort", deny: "human's decision"},
		{cmd: "ralph-gate repair --loop x", deny: "human's decision"},
		{cmd: "ralph-gate pause", deny: "human's decision"},
		{cmd: "ralph-gate resume", deny: "human's decision"},
		{cmd: "echo '{}' > .aiwg/ralph/registry.json", deny: "belongs to the gate"},
		{cmd: "rm -rf .aiwg/ralph", deny: "belongs to the gate"},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			reason := preToolUse(t, r.dir, hookPayload(t, "PreToolUse", r.dir, "Bash", map[string]any{"command": tc.cmd, "description": "e2e"}, nil))
			switch {
			case tc.deny == "" && reason != "":
				t.Errorf("denied: %s", reason)
			case tc.deny != "" && reason == "":
				t.Errorf("allowed, want denied (%s)", tc.deny)
			case tc.deny != "" && !strings.Contains(reason, tc.deny):
				t.Errorf("reason %q does not say %q", reason, tc.deny)
			}
		})
	}
}

func TestGuardFixturePayloads(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("pkg/calc.go", "package pkg\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n")
	r.write("pkg/calc_test.go", "package pkg\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 2); got != 4 {\n\t\tt.Fatalf(\"Add(2, 2) = %d, want 4\", got)\n\t}\n}\n")
	r.commit("base")
	for file, deny := range map[string]bool{
		"pre-tool-use-write.json": true, "pre-tool-use-edit.json": true, "pre-tool-use-multiedit.json": false, "pre-tool-use-bash.json": true,
	} {
		data, err := os.ReadFile(filepath.Join("..", "..", "internal", "agent", "claude", "testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		payload := strings.ReplaceAll(string(data), "@ROOT@", r.dir)
		if got := preToolUse(t, r.dir, payload) != ""; got != deny {
			t.Errorf("%s: denied %v, want %v", file, got, deny)
		}
	}
}

func TestGuardMalformedInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, in := range map[string]string{
		"empty":          "",
		"not json":       "rm -rf /",
		"edit no file":   `{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"old_string":"a","new_string":"b"}}`,
		"wrong event":    `{"hook_event_name":"Stop"}`,
		"input a string": `{"tool_name":"Bash","tool_input":"rm x"}`,
	} {
		res := runGate(t, dir, in, "guard", "pre-tool-use")
		if res.code != 2 || res.stdout != "" || strings.Count(strings.TrimSpace(res.stderr), "\n") != 0 || res.stderr == "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line on stderr", name, res.code, res.stdout, res.stderr)
		}
	}
	if res := runGate(t, dir, "{}", "guard", "bogus"); res.code != 2 {
		t.Errorf("unknown subcommand: exit %d, want 2", res.code)
	}
}

const settingsWithHooks = `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "./scripts/check-bash.sh"}]}
    ],
    "Stop": [
      {"hooks": [{"type": "command", "command": "say done"}]}
    ]
  },
  "permissions": {"allow": ["Bash(go test:*)"]}
}
`

func TestGuardInstall(t *testing.T) {
	t.Parallel()
	r := guardModule(t, "")
	r.write(".claude/settings.json", settingsWithHooks)
	sub := filepath.Join(r.dir, "tests")
	res := runGate(t, sub, "", "guard", "install")
	if res.code != 0 || !strings.Contains(res.stdout, "installed") {
		t.Fatalf("install: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	path := filepath.Join(r.dir, ".claude", "settings.json")
	first, _ := os.ReadFile(path)
	var doc struct {
		Hooks map[string][]struct {
			Matcher string                           `json:"matcher"`
			Hooks   []struct{ Type, Command string } `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(first, &doc); err != nil {
		t.Fatalf("settings: %v\n%s", err, first)
	}
	for event, sub := range map[string]string{"PreToolUse": "pre-tool-use", "PostToolUse": "post-tool-use", "Stop": "stop"} {
		want := binary + " guard " + sub + " --agent claude"
		found := false
		for _, g := range doc.Hooks[event] {
			for _, h := range g.Hooks {
				if h.Command == want && h.Type == "command" {
					found = true
					if event != "Stop" && g.Matcher != "*" {
						t.Errorf("%s matcher %q", event, g.Matcher)
					}
				}
			}
		}
		if !found {
			t.Errorf("%s: no %q hook in\n%s", event, want, first)
		}
	}
	if !strings.Contains(string(first), "./scripts/check-bash.sh") || !strings.Contains(string(first), "say done") || !strings.Contains(string(first), `"Bash(go test:*)"`) {
		t.Errorf("install lost the user's settings:\n%s", first)
	}
	if i, j, k := strings.Index(string(first), `"model"`), strings.Index(string(first), `"hooks"`), strings.Index(string(first), `"permissions"`); !(i < j && j < k) {
		t.Errorf("key order changed:\n%s", first)
	}

	// Twice is once.
	res = runGate(t, r.dir, "", "guard", "install")
	second, _ := os.ReadFile(path)
	if res.code != 0 || string(second) != string(first) || !strings.Contains(res.stdout, "nothing changed") {
		t.Errorf("second install: exit %d, changed %v: %s", res.code, string(second) != string(first), res.stdout)
	}

	// The agent cannot remove it.
	if reason := preToolUse(t, r.dir, hookPayload(t, "PreToolUse", r.dir, "Bash", map[string]any{"command": binary + " guard install --uninstall"}, nil)); reason == "" {
		t.Error("an agent's guard uninstall was allowed")
	}

	// Uninstall removes only the guard's entries.
	res = runGate(t, r.dir, "", "guard", "install", "--uninstall")
	if res.code != 0 {
		t.Fatalf("uninstall: exit %d\n%s", res.code, res.stderr)
	}
	after, _ := os.ReadFile(path)
	var want, got any
	_ = json.Unmarshal([]byte(settingsWithHooks), &want)
	_ = json.Unmarshal(after, &got)
	if wb, _ := json.Marshal(want); string(wb) != string(mustMarshal(t, got)) {
		t.Errorf("uninstall did not restore the settings:\n%s", after)
	}

	// A new file, with its directory, at --settings.
	other := filepath.Join(t.TempDir(), "cfg", "settings.local.json")
	if res := runGate(t, r.dir, "", "guard", "install", "--settings", other); res.code != 0 {
		t.Fatalf("install --settings: exit %d\n%s", res.code, res.stderr)
	}
	if data, err := os.ReadFile(other); err != nil || !strings.Contains(string(data), "guard stop") {
		t.Errorf("install --settings wrote %q, %v", data, err)
	}

	// A malformed file is named and never overwritten.
	bad := filepath.Join(r.dir, "bad.json")
	r.write("bad.json", `{"hooks": [`)
	res = runGate(t, r.dir, "", "guard", "install", "--settings", bad)
	if res.code != 2 || !strings.Contains(res.stderr, bad) || strings.Count(strings.TrimSpace(res.stderr), "\n") != 0 {
		t.Errorf("malformed settings: exit %d, stderr %q", res.code, res.stderr)
	}
	if data, _ := os.ReadFile(bad); string(data) != `{"hooks": [` {
		t.Errorf("malformed settings overwritten: %q", data)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGuardPostToolUse(t *testing.T) {
	t.Parallel()
	r := guardModule(t, "")
	write := hookPayload(t, "PostToolUse", r.dir, "Write", map[string]any{"file_path": filepath.Join(r.dir, "calc_test.go"), "content": loopCalcTest},
		map[string]any{"tool_response": map[string]any{"filePath": filepath.Join(r.dir, "calc_test.go"), "success": true}})
	bash := hookPayload(t, "PostToolUse", r.dir, "Bash", map[string]any{"command": "go build ./... && rm -rf build"},
		map[string]any{"tool_response": map[string]any{"stdout": "", "stderr": "", "interrupted": false}})
	edit := hookPayload(t, "PostToolUse", r.dir, "Edit", map[string]any{"file_path": "calc.go", "old_string": "a - b", "new_string": "a + b"}, nil)

	// No loop: nothing at all.
	if res := runGate(t, r.dir, write, "guard", "post-tool-use"); res.code != 0 || res.stdout != "" {
		t.Fatalf("post-tool-use without a loop: exit %d %q %q", res.code, res.stdout, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(r.dir, ".aiwg")); err == nil {
		t.Error("post-tool-use without a loop created .aiwg")
	}

	r.write("check.sh", "exit 0\n")
	r.commit("check")
	id := startLoop(t, r, "--task", "log calls", "--completion", "sh check.sh", "--collect", "none")
	for _, p := range []string{write, bash, edit} {
		if res := runGate(t, r.dir, p, "guard", "post-tool-use"); res.code != 0 || res.stdout != "" {
			t.Fatalf("post-tool-use: exit %d %q %q", res.code, res.stdout, res.stderr)
		}
	}
	data, err := os.ReadFile(filepath.Join(r.dir, ".aiwg", "ralph", "loops", id, "tool-calls.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 3 {
		t.Fatalf("tool-calls.jsonl has %d lines:\n%s", len(lines), data)
	}
	var calls []map[string]any
	for _, l := range lines {
		var c map[string]any
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatal(err)
		}
		calls = append(calls, c)
	}
	if calls[0]["tool"] != "Write" || calls[0]["file"] != "calc_test.go" || calls[0]["risky"] != true || calls[0]["risk"] != "test_file_modification" || calls[0]["timestamp"] == nil {
		t.Errorf("write record: %v", calls[0])
	}
	if calls[1]["tool"] != "Bash" || calls[1]["command"] != "go build ./... && rm -rf build" || calls[1]["risk"] != "bulk_deletion" {
		t.Errorf("bash record: %v", calls[1])
	}
	if calls[2]["tool"] != "Edit" || calls[2]["risky"] != false {
		t.Errorf("edit record: %v", calls[2])
	}
	// A denied pre-tool-use call is a detection, logged with its latency.
	deleteTests := hookPayload(t, "PreToolUse", r.dir, "Write", map[string]any{"file_path": filepath.Join(r.dir, "calc_test.go"), "content": "package calc\n"}, nil)
	if res := runGate(t, r.dir, deleteTests, "guard", "pre-tool-use"); res.code != 0 || !strings.Contains(res.stdout, `"deny"`) {
		t.Fatalf("pre-tool-use of a test deletion: exit %d %s%s", res.code, res.stdout, res.stderr)
	}
	res := runGate(t, r.dir, "", "status")
	if res.code != 0 || !strings.Contains(res.stdout, "Tool Calls: 3 (Bash 1, Edit 1, Write 1)") || !strings.Contains(res.stdout, "Risky Actions: 2 (bulk_deletion 1, test_file_modification 1)") ||
		!strings.Contains(res.stdout, "Denied Tool Calls: 1") {
		t.Errorf("status: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	res = runGate(t, r.dir, "", "status", "--format", "json")
	var st struct {
		ToolCalls struct {
			Total, Denied int
			Risky         []any `json:"risky_actions"`
		} `json:"tool_calls"`
		PM map[string]any `json:"persistence_metrics"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &st); err != nil {
		t.Fatal(err)
	}
	if st.ToolCalls.Total != 3 || st.ToolCalls.Denied != 1 || len(st.ToolCalls.Risky) != 2 || st.PM["true_positive_count"] != float64(1) {
		t.Errorf("status --format json: tool_calls %+v, persistence_metrics %v", st.ToolCalls, st.PM)
	}
}

// stop runs the Stop hook and returns its block reason ("" for none).
func stop(t *testing.T, r *repo, active bool) string {
	t.Helper()
	res := runGate(t, r.dir, hookPayload(t, "Stop", r.dir, "", nil, map[string]any{"stop_hook_active": active}), "guard", "stop")
	if res.code != 0 {
		t.Fatalf("stop: exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
	if strings.TrimSpace(res.stdout) == "" {
		return ""
	}
	var out struct{ Decision, Reason string }
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil || out.Decision != "block" || out.Reason == "" {
		t.Fatalf("stop output is not a block: %v %s", err, res.stdout)
	}
	return out.Reason
}

func TestGuardStop(t *testing.T) {
	t.Parallel()
	r := guardModule(t, "guard:\n  max_stop_blocks: 2\n")
	// The completion passes when DONE holds "yes" in the checkout it runs in.
	r.write("check.sh", "grep -q yes DONE\n")
	r.write("DONE", "no\n")
	r.commit("check")

	// No loop: the stop goes through.
	if reason := stop(t, r, false); reason != "" {
		t.Fatalf("stop without a loop blocked: %s", reason)
	}
	id := startLoop(t, r, "--task", "finish", "--completion", "sh check.sh", "--collect", "none")

	statusBefore := r.git("status", "--porcelain")
	// The completion fails: blocked max_stop_blocks times in a row, the
	// first stop's block included, then let through until a fresh stop.
	if reason := stop(t, r, false); !strings.Contains(reason, "completion command `sh check.sh` fails") || !strings.Contains(reason, "blocked 1 of at most 2") {
		t.Fatalf("first stop: %q", reason)
	}
	if reason := stop(t, r, true); !strings.Contains(reason, "blocked 2 of at most 2") {
		t.Fatalf("active stop: %q, want the second block", reason)
	}
	for i := 0; i < 2; i++ {
		if reason := stop(t, r, true); reason != "" {
			t.Fatalf("stop past the limit blocked: %s", reason)
		}
	}
	calls, _ := os.ReadFile(filepath.Join(r.dir, ".aiwg", "ralph", "loops", id, "tool-calls.jsonl"))
	if n := strings.Count(string(calls), `"event":"stop_released"`); n != 1 {
		t.Errorf("%d stop_released events, want 1:\n%s", n, calls)
	}
	log, _ := os.ReadFile(filepath.Join(r.dir, ".aiwg", "ralph", "loops", id, "hook-log.jsonl"))
	if !strings.Contains(string(log), "stop_hook_limit") {
		t.Errorf("no stop_hook_limit event in hook-log.jsonl:\n%s", log)
	}
	if res := runGate(t, r.dir, "", "status"); !strings.Contains(res.stdout, "let the agent stop 1 time(s)") {
		t.Errorf("status does not show the released stop:\n%s", res.stdout)
	}
	if got := r.git("status", "--porcelain"); got != statusBefore {
		t.Errorf("the stop checks changed the working tree or index:\n%s\nwant\n%s", got, statusBefore)
	}
	// A fresh stop resets the count.
	if reason := stop(t, r, false); reason == "" {
		t.Fatal("a fresh stop after the limit was let through")
	}

	// Uncommitted work counts: the completion passes on it (in a temporary
	// worktree), and the user's tree, index and stash are left as they were.
	r.write("DONE", "yes\n")
	if reason := stop(t, r, false); reason != "" {
		t.Fatalf("stop with the work done blocked: %s", reason)
	}
	// An uncommitted test deletion is a finding, whatever the completion says.
	r.write("calc_test.go", strings.Replace(loopCalcTest, "func TestMul(t *testing.T) {\n\tif got := Mul(2, 3); got != 6 {\n\t\tt.Errorf(\"Mul(2, 3) = %d, want 6\", got)\n\t}\n}\n", "", 1))
	if reason := stop(t, r, false); !strings.Contains(reason, "test_deletion") || !strings.Contains(reason, "TestMul") {
		t.Fatalf("stop with an uncommitted test deletion: %q", reason)
	}
	// Committed, the same.
	r.commit("drop TestMul")
	if reason := stop(t, r, false); !strings.Contains(reason, "test_deletion") {
		t.Fatalf("stop with a committed test deletion: %q", reason)
	}
	if got := r.git("stash", "list"); got != "" {
		t.Errorf("the stop check left a stash: %s", got)
	}
	if got := r.git("worktree", "list", "--porcelain"); strings.Count(got, "worktree ") != 1 {
		t.Errorf("the stop check left a worktree:\n%s", got)
	}
}

// TestGuardPostToolUseRegression: after a destructive call (one the
// PreToolUse hook cannot judge, like a git checkout of an older test file)
// the work is checked against the last iteration at once: the agent is told,
// and the regression is recorded and shown in status. A call that changes
// no test is only logged.
func TestGuardPostToolUseRegression(t *testing.T) {
	t.Parallel()
	r := guardModule(t, "")
	startLoop(t, r, "--task", "finish", "--completion", "go test ./...", "--collect", "none")
	post := func(tool string, input any) (string, string) {
		t.Helper()
		res := runGate(t, r.dir, hookPayload(t, "PostToolUse", r.dir, tool, input, map[string]any{"tool_response": map[string]any{}}), "guard", "post-tool-use")
		if res.code != 0 {
			t.Fatalf("post-tool-use: exit %d\n%s%s", res.code, res.stdout, res.stderr)
		}
		if strings.TrimSpace(res.stdout) == "" {
			return "", ""
		}
		var out struct{ Decision, Reason string }
		if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
			t.Fatalf("post-tool-use output: %v\n%s", err, res.stdout)
		}
		return out.Decision, out.Reason
	}
	if d, reason := post("Read", map[string]any{"file_path": filepath.Join(r.dir, "calc.go")}); d != "" {
		t.Fatalf("a Read was answered: %s %s", d, reason)
	}
	// What the checkout left: calc_test.go without TestMul.
	r.write("calc_test.go", strings.Replace(loopCalcTest, "func TestMul(t *testing.T) {\n\tif got := Mul(2, 3); got != 6 {\n\t\tt.Errorf(\"Mul(2, 3) = %d, want 6\", got)\n\t}\n}\n", "", 1))
	d, reason := post("Bash", map[string]any{"command": "git checkout HEAD~1 -- calc_test.go"})
	if d != "block" || !strings.Contains(reason, "test_deletion") || !strings.Contains(reason, "TestMul") {
		t.Fatalf("after the checkout: %q %q, want a block naming the deleted TestMul", d, reason)
	}
	// A production edit is not destructive: logged, not checked.
	if d, _ := post("Edit", map[string]any{"file_path": filepath.Join(r.dir, "calc.go"), "old_string": "a", "new_string": "b"}); d != "" {
		t.Errorf("an edit of production code was checked: %s", d)
	}
	res := runGate(t, r.dir, "", "status", "--format", "json")
	var st struct {
		ToolCalls struct {
			RegressionsDetected []struct {
				Tool, Command, Detail string
				Iteration             int
			} `json:"regressions_detected"`
		} `json:"tool_calls"`
		History []struct{ Tool string } `json:"tool_call_history"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &st); err != nil {
		t.Fatalf("status: %v\n%s", err, res.stdout)
	}
	if rd := st.ToolCalls.RegressionsDetected; len(rd) != 1 || rd[0].Tool != "Bash" || rd[0].Iteration != 1 || !strings.Contains(rd[0].Detail, "test_deletion") {
		t.Errorf("regressions_detected: %+v", rd)
	}
	if len(st.History) != 3 {
		t.Errorf("tool_call_history has %d calls, want 3: %+v", len(st.History), st.History)
	}
	if res := runGate(t, r.dir, "", "status"); !strings.Contains(res.stdout, "Regressions Detected After Tool Calls: 1") {
		t.Errorf("status does not show the regression:\n%s", res.stdout)
	}
	log, _ := os.ReadFile(filepath.Join(r.dir, ".aiwg", "ralph", "loops", onlyLoopID(t, r), "hook-log.jsonl"))
	if !strings.Contains(string(log), `"hook_name":"post_tool_call"`) || !strings.Contains(string(log), `"regression_detected":true`) {
		t.Errorf("hook-log.jsonl has no post_tool_call regression:\n%s", log)
	}
}

// onlyLoopID is the id of the repository's only loop.
func onlyLoopID(t *testing.T, r *repo) string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(r.dir, ".aiwg", "ralph", "loops"))
	if err != nil || len(entries) != 1 {
		t.Fatalf("loops: %v %v", entries, err)
	}
	return entries[0].Name()
}

// TestGuardInstallCodex: Codex's hooks go into $CODEX_HOME/hooks.json, for
// every tool (no matcher), and the user is told that Codex runs them once
// trusted; twice is once; --uninstall removes them.
func TestGuardInstallCodex(t *testing.T) {
	t.Parallel()
	r := guardModule(t, "")
	codexHome := filepath.Join(t.TempDir(), "codex")
	env := append(os.Environ(), "NO_COLOR=1", "CODEX_HOME="+codexHome)
	res := runGateEnv(t, r.dir, "", env, "guard", "install", "--agent", "codex")
	if res.code != 0 || !strings.Contains(res.stdout, "trusted") {
		t.Fatalf("install: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	path := filepath.Join(codexHome, "hooks.json")
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Hooks map[string][]struct {
			Matcher *string                    `json:"matcher"`
			Hooks   []struct{ Command string } `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(first, &doc); err != nil {
		t.Fatal(err)
	}
	for event, sub := range map[string]string{"PreToolUse": "pre-tool-use", "PostToolUse": "post-tool-use", "Stop": "stop"} {
		g := doc.Hooks[event]
		if len(g) != 1 || g[0].Matcher != nil || len(g[0].Hooks) != 1 || g[0].Hooks[0].Command != binary+" guard "+sub+" --agent codex" {
			t.Errorf("%s: %+v", event, g)
		}
	}
	if res := runGateEnv(t, r.dir, "", env, "guard", "install", "--agent", "codex"); res.code != 0 || !strings.Contains(res.stdout, "nothing changed") {
		t.Errorf("second install: exit %d %s", res.code, res.stdout)
	}
	if res := runGateEnv(t, r.dir, "", env, "guard", "install", "--agent", "codex", "--uninstall"); res.code != 0 {
		t.Fatalf("uninstall: exit %d %s", res.code, res.stderr)
	}
	if data, _ := os.ReadFile(path); strings.Contains(string(data), "guard") {
		t.Errorf("uninstall left the guard's hooks:\n%s", data)
	}
	if res := runGateEnv(t, r.dir, "", env, "guard", "install", "--agent", "aider"); res.code != 2 || !strings.Contains(res.stderr, `unknown agent client "aider"`) {
		t.Errorf("unknown client: exit %d %s", res.code, res.stderr)
	}
	// Without HOME or CODEX_HOME there is no hooks file to write: the
	// client says where it would have looked.
	var homeless []string
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != "HOME" && k != "CODEX_HOME" {
			homeless = append(homeless, kv)
		}
	}
	if res := runGateEnv(t, r.dir, "", homeless, "guard", "install", "--agent", "codex"); res.code != 2 ||
		!strings.Contains(res.stderr, "guard install: no HOME or CODEX_HOME to find Codex's hooks file: give it with --settings FILE") {
		t.Errorf("no home: exit %d %s", res.code, res.stderr)
	}
}
