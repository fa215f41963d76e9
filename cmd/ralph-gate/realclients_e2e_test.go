//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/agent"
	"github.com/ralph-gate/ralph-gate/internal/agent/clients"
	"github.com/ralph-gate/ralph-gate/internal/agent/fakemodel"
)

// realClient is one real client under test, with what its scripts need.
type realClientCase struct {
	name string
	bin  func(*testing.T) string
	// start serves a script in the client's model API.
	start func(testing.TB, []fakemodel.Turn, fakemodel.Options) *fakemodel.Server
	env   func(*testing.T, *clientHome, *fakemodel.Server) []string
	// shell is a turn running a shell command; edit one replacing old by
	// repl in a file.
	shell func(cmd string) fakemodel.Turn
	edit  func(path, old, repl string) fakemodel.Turn
	last  func(fakemodel.Request) (string, bool)
}

var realClients = []realClientCase{
	{
		name: "claude", bin: claudeBinary, start: fakemodel.StartAnthropic,
		env: func(_ *testing.T, h *clientHome, s *fakemodel.Server) []string { return h.claudeEnv(s) },
		shell: func(cmd string) fakemodel.Turn {
			return fakemodel.Turn{Calls: []fakemodel.Call{{Name: "Bash", Input: map[string]any{"command": cmd, "description": "run", "timeout": 600000}}}}
		},
		edit: func(path, old, repl string) fakemodel.Turn {
			return fakemodel.Turn{Calls: []fakemodel.Call{{Name: "Edit", Input: map[string]any{"file_path": path, "old_string": old, "new_string": repl}}}}
		},
		last: anthropicLastResult,
	},
	{
		name: "codex", bin: codexBinary, start: fakemodel.StartOpenAI,
		env: func(t *testing.T, h *clientHome, s *fakemodel.Server) []string { return h.codexEnv(t, s) },
		shell: func(cmd string) fakemodel.Turn {
			return fakemodel.Turn{Calls: []fakemodel.Call{{Name: "exec_command", Input: map[string]any{"cmd": cmd, "login": false, "yield_time_ms": 600000}}}}
		},
		edit: func(path, old, repl string) fakemodel.Turn {
			p := "*** Begin Patch\n*** Update File: " + path + "\n@@\n-" + old + "\n+" + repl + "\n*** End Patch\n"
			return fakemodel.Turn{Calls: []fakemodel.Call{{Name: "apply_patch", Input: p}}}
		},
		last: openaiLastResult,
	},
}

// guardedRun runs a client once, as ralph-gate run would (its preset, the
// prompt on standard input) but by hand, with the guard's hooks for it: on
// its command line, or installed in its hooks file for runs.
func guardedRun(t *testing.T, c realClientCase, h *clientHome, r *repo, s *fakemodel.Server) result {
	t.Helper()
	client, err := clients.Lookup(c.name)
	if err != nil {
		t.Fatal(err)
	}
	env := c.env(t, h, s)
	setup := client.Hooks(r.dir, h.dir, func(k string) string { return envValue(env, k) })
	command := client.Preset()
	if setup.RunArgs != nil {
		command += " " + setup.RunArgs(agent.HookCommand(binary, client))
	} else if res := runGateEnv(t, r.dir, "", h.env, "guard", "install", "--agent", c.name, "--settings", setup.File); res.code != 0 {
		t.Fatalf("guard install: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir, cmd.Env, cmd.Stdin = r.dir, env, strings.NewReader("finish the task")
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code: code, stdout: string(out)}
}

// eachRealClient runs a slow test once per real client, each in its own
// network namespace (isolate), with a client home and a loopModule.
func eachRealClient(t *testing.T, test func(t *testing.T, c realClientCase, h *clientHome, r *repo)) {
	t.Helper()
	slow(t)
	for _, c := range realClients {
		t.Run(c.name, func(t *testing.T) {
			bin := c.bin(t)
			if isolate(t) {
				return
			}
			test(t, c, newClientHome(t, bin), loopModule(t))
		})
	}
}

func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// TestRealClientsStopHookLimit: with the completion failing whatever the
// agent does, the Stop hook sends each real client back max_stop_blocks
// times, then lets it stop and tells a human (Codex sets no limit of its
// own); without a loop it never blocks, and a configuration that cannot be
// read neither switches the guard off nor blocks honest work.
func TestRealClientsStopHookLimit(t *testing.T) {
	eachRealClient(t, func(t *testing.T, c realClientCase, h *clientHome, r *repo) {

		// No loop: the agent stops at once.
		s := c.start(t, []fakemodel.Turn{{Text: "Done."}}, fakemodel.Options{})
		if res := guardedRun(t, c, h, r, s); res.code != 0 {
			t.Fatalf("without a loop: exit %d\n%s", res.code, res.stdout)
		}
		s.Check()

		// A loop whose completion never passes: blocked three times
		// (the default max_stop_blocks), then let through.
		if res := runGateEnv(t, r.dir, "", h.env, "start", "--task", "finish", "--completion", "false", "--collect", "none"); res.code != 0 {
			t.Fatalf("start: exit %d\n%s%s", res.code, res.stdout, res.stderr)
		}
		blocked := toldNow("The completion command `false` fails")
		s = c.start(t, []fakemodel.Turn{
			{Text: "Done."}, {Text: "Done now.", When: blocked}, {Text: "Really done.", When: blocked}, {Text: "Giving up.", When: blocked},
		}, fakemodel.Options{})
		if res := guardedRun(t, c, h, r, s); res.code != 0 {
			t.Fatalf("in a loop: exit %d\n%s", res.code, res.stdout)
		}
		s.Check()
		st := statusJSON(t, r.dir, h.env)
		calls, _ := st["tool_calls"].(map[string]any)
		if calls["stop_blocks"] != 3.0 || len(calls["stop_releases"].([]any)) != 1 {
			t.Errorf("stop events: %v blocks, %v releases; want 3 and 1", calls["stop_blocks"], calls["stop_releases"])
		}

		// Without a loop, with a configuration at HEAD that cannot be
		// read: the guard falls back to its defaults, warns once, and
		// lets an honest edit, a command and the stop through; it still
		// denies a test's deletion.
		r2 := loopModule(t)
		r2.write(".ralph-gate.yml", "fail_on: [nonsense\n")
		r2.commit("a broken config")
		s = c.start(t, []fakemodel.Turn{
			c.edit(filepath.Join(r2.dir, "calc.go"), "func Add(a, b int) int { return a - b }", "func Add(a, b int) int { return a + b }"),
			withWhen(c.shell("rm calc_test.go"), allowedBefore(c.last, "")),
			withWhen(c.shell("go vet ./..."), deniedBefore(c.last, "would delete the test file")),
			{Text: "Done.", When: allowedBefore(c.last, "")},
		}, fakemodel.Options{})
		if res := guardedRun(t, c, h, r2, s); res.code != 0 {
			t.Fatalf("with a broken config: exit %d\n%s", res.code, res.stdout)
		}
		s.Check()
		if got := r2.git("diff", "--stat"); !strings.Contains(got, "calc.go") {
			t.Errorf("the honest edit did not land: %s", got)
		}
		warned, err := os.ReadFile(filepath.Join(r2.dir, ".git", "ralph-gate", "guard-warned"))
		if err != nil || !strings.Contains(string(warned), ".ralph-gate.yml") {
			t.Errorf("the guard did not warn about the broken config: %v %s", err, warned)
		}
	})
}

func withWhen(tn fakemodel.Turn, when func(fakemodel.Request) error) fakemodel.Turn {
	tn.When = when
	return tn
}

// TestRealClientsInterrupted: Ctrl-C while a real client is in the middle
// of a shell command stops it and everything it started, and leaves the
// loop paused, resumable.
func TestRealClientsInterrupted(t *testing.T) {
	eachRealClient(t, func(t *testing.T, c realClientCase, h *clientHome, r *repo) {
		marker := filepath.Join(t.TempDir(), "started")
		s := c.start(t, []fakemodel.Turn{c.shell("touch " + marker + " && sleep 123")}, fakemodel.Options{})
		cmd := exec.Command(binary, "run", "--agent", c.name, "--task", "make the calc tests pass", "--completion", "go test ./...")
		cmd.Dir, cmd.Env = r.dir, c.env(t, h, s)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		ctrlCOnce(t, cmd, marker, 90*time.Second, &out)
		if pids, _ := exec.Command("pgrep", "-f", "sleep 123").Output(); len(strings.TrimSpace(string(pids))) > 0 {
			t.Errorf("the agent's command is still running after Ctrl-C: pids %s", pids)
			_ = exec.Command("pkill", "-f", "sleep 123").Run()
		}
		if st := statusJSON(t, r.dir, h.env); st["status"] != "paused" {
			t.Errorf("loop status %v after Ctrl-C, want paused\n%s", st["status"], out.String())
		}
	})
}
