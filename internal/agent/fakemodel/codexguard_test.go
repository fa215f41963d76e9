package fakemodel

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"mvdan.cc/sh/v3/syntax"
)

// TestCodexRunsRalphGateGuard installs the real `ralph-gate guard` as
// Codex's hooks for one run, the way a `run --agent codex` preset can
// (codexHookArgs), and shows the guard reading Codex's payloads as they
// are: a shell command it denies never runs and its reason reaches the
// model, an honest one runs, and without a loop the stop is let through.
func TestCodexRunsRalphGateGuard(t *testing.T) {
	bin := codexBinary(t)
	gate := filepath.Join(t.TempDir(), "ralph-gate")
	if out, err := exec.Command("go", "build", "-o", gate, "github.com/ralph-gate/ralph-gate/cmd/ralph-gate").CombinedOutput(); err != nil {
		t.Fatalf("go build ralph-gate: %v\n%s", err, out)
	}
	q, err := syntax.Quote(gate, syntax.LangPOSIX)
	if err != nil {
		t.Fatal(err)
	}
	srv := StartOpenAI(t, []Turn{
		{Calls: []Call{{Name: "exec_command", Input: map[string]any{"cmd": "echo skipped > hooks.txt && git commit --no-verify -m wip", "login": false}}}},
		{Calls: []Call{{Name: "exec_command", Input: map[string]any{"cmd": "echo honest > honest.txt", "login": false}}},
			When: outputHas("Command blocked by PreToolUse hook: ralph-gate: git commit --no-verify")},
		{Text: "Done."},
	}, Options{Timeout: 2 * time.Minute})
	setup := newCodexSetup(t, bin, srv, map[string]string{"README.md": "# demo\n"})
	setup.Args = codexHookArgs([]codexHook{
		{Event: "PreToolUse", Key: "pre_tool_use", Command: q + " guard pre-tool-use", Timeout: 600},
		{Event: "PostToolUse", Key: "post_tool_use", Command: q + " guard post-tool-use", Timeout: 600},
		{Event: "Stop", Key: "stop", Command: q + " guard stop", Timeout: 900},
	})
	run := setup.run(t, "Commit the work.", 3*time.Minute)
	run.mustSucceed(t)
	srv.Check()
	if _, err := os.Stat(filepath.Join(setup.Dir, "hooks.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the denied command ran: hooks.txt exists (%v)", err)
	}
	if got, err := os.ReadFile(filepath.Join(setup.Dir, "honest.txt")); err != nil || string(got) != "honest\n" {
		t.Errorf("honest.txt = %q (%v)", got, err)
	}
	if !strings.Contains(run.Stderr, "Command blocked by PreToolUse hook: ralph-gate:") {
		t.Errorf("codex's stderr does not log the denial:\n%s", run.Stderr)
	}
}

// TestCodexHookCwdFollowsWorkdir shows that a hook's cwd is the directory
// the command runs in, which exec_command's workdir sets, anywhere: a
// guard must resolve the command's relative paths against it, and must not
// look for the repository from it (a workdir outside the repository would
// hide the repository from it).
func TestCodexHookCwdFollowsWorkdir(t *testing.T) {
	bin := codexBinary(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	srv := StartOpenAI(t, []Turn{
		{Calls: []Call{{Name: "exec_command", Input: map[string]any{"cmd": "pwd", "workdir": "pkg", "login": false}}}},
		{Calls: []Call{{Name: "exec_command", Input: map[string]any{"cmd": "pwd", "workdir": outside, "login": false}}}},
		{Text: "Done."},
	}, Options{Timeout: 2 * time.Minute})
	setup := newCodexSetup(t, bin, srv, map[string]string{"pkg/a.go": "package pkg\n"})
	log := t.TempDir()
	q, _ := syntax.Quote(self, syntax.LangPOSIX)
	ql, _ := syntax.Quote(log, syntax.LangPOSIX)
	setup.Args = codexHookArgs([]codexHook{{Event: "PreToolUse", Key: "pre_tool_use", Command: hookEnv + "=PreToolUse " + hookLogEnv + "=" + ql + " " + q, Timeout: 600}})
	setup.run(t, "Look around.", 3*time.Minute).mustSucceed(t)
	srv.Check()
	var cwds []string
	for _, p := range readHookLog(t, log) {
		var m struct {
			Cwd string `json:"cwd"`
		}
		if err := json.Unmarshal(p.data, &m); err != nil {
			t.Fatal(err)
		}
		cwds = append(cwds, m.Cwd)
	}
	if d := cmp.Diff([]string{filepath.Join(setup.Dir, "pkg"), outside}, cwds); d != "" {
		t.Errorf("PreToolUse cwd (-want +got):\n%s", d)
	}
}
