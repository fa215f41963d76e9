//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A human decision needs a human: approve, reject, abort and record
// --interactive take the user at a terminal as the decider, and anything
// else (a pipe, a file, /dev/null, which is a character device but no
// terminal) must name one with --by. An agent or a script that runs
// `ralph-gate approve </dev/null` decides nothing.

// stdinKind is how a script or an agent feeds a command's standard input.
type stdinKind string

const (
	fromDevNull stdinKind = "/dev/null"
	fromPipe    stdinKind = "a pipe"
	fromFile    stdinKind = "a file"
)

var notTerminals = []stdinKind{fromDevNull, fromPipe, fromFile}

// runFrom runs the binary in dir with standard input from kind, as
// `ralph-gate ARGS </dev/null`, `: | ralph-gate ARGS` or `ralph-gate ARGS <file`.
func runFrom(t *testing.T, dir string, kind stdinKind, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	switch kind {
	case fromDevNull:
		f, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	case fromPipe:
		cmd.Stdin = strings.NewReader("a\n") // os/exec feeds a pipe
	case fromFile:
		path := filepath.Join(t.TempDir(), "answers")
		if err := os.WriteFile(path, []byte("a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	default:
		t.Fatalf("unknown standard input %q", kind)
	}
	return execResult(t, cmd)
}

// blockedLoop starts a loop and records an iteration that deletes a test:
// the loop waits for a human decision on it.
func blockedLoop(t *testing.T) (*repo, string) {
	t.Helper()
	r := loopModule(t)
	id := startLoop(t, r, "--task", "decide", "--completion", "false", "--collect", "none")
	deleteLoopTest(t, r, "TestSub")
	return r, id
}

// deleteLoopTest commits the deletion of one of loopCalcTest's tests and
// records it: blocked, a test deletion.
func deleteLoopTest(t *testing.T, r *repo, name string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(r.dir, "calc_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok := strings.Cut(string(src), "func "+name+"(")
	if !ok {
		t.Fatalf("calc_test.go has no %s", name)
	}
	if _, after, ok := strings.Cut(rest, "\n}\n"); ok {
		r.write("calc_test.go", before+strings.TrimPrefix(after, "\n"))
	}
	r.commit("delete " + name)
	if out := record(t, r, 1); out.Decision != "blocked" || !out.has("test_deletion", "critical", name) {
		t.Fatalf("the iteration deleting %s = %+v", name, out)
	}
}

func stateFile(r *repo, id string) string {
	return filepath.Join(r.dir, ".aiwg", "ralph", "loops", id, "state.json")
}

// decisions lists the loop's human decisions ("approve - by ana", ...).
func decisions(t *testing.T, r *repo, id string) []string {
	t.Helper()
	var out []string
	recs, _ := readState(t, r, id)["recovery_history"].([]any)
	for _, rec := range recs {
		steps, _ := rec.(map[string]any)["protocol_steps"].(map[string]any)
		esc, _ := steps["escalate"].(map[string]any)
		if d, _ := esc["human_decision"].(string); d != "" {
			out = append(out, d)
		}
	}
	return out
}

func stopReason(t *testing.T, r *repo, id string) string {
	t.Helper()
	rg, _ := readState(t, r, id)["ralph_gate"].(map[string]any)
	s, _ := rg["stop_reason"].(string)
	return s
}

// TestDecisionsAwayFromATerminal: approve, reject and abort without --by,
// and record --interactive, exit 2 from /dev/null, a pipe or a file, with
// one line naming the fix, and change nothing; with --by the decision is
// taken and recorded with the name.
func TestDecisionsAwayFromATerminal(t *testing.T) {
	t.Parallel()
	r, id := blockedLoop(t)
	before, err := os.ReadFile(stateFile(r, id))
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range notTerminals {
		for _, args := range [][]string{{"approve"}, {"reject"}, {"abort"}, {"approve", "--by", " "}} {
			res := runFrom(t, r.dir, kind, args...)
			if res.code != 2 || !strings.Contains(res.stderr, "standard input is not a terminal") || !strings.Contains(res.stderr, "--by NAME") {
				t.Errorf("%v from %s: exit %d, stderr %q; want exit 2 naming --by NAME", args, kind, res.code, res.stderr)
			}
			if n := strings.Count(strings.TrimSpace(res.stderr), "\n"); n != 0 {
				t.Errorf("%v from %s: %d lines on stderr, want one:\n%s", args, kind, n+1, res.stderr)
			}
		}
		// record --interactive asks a person: it refuses before touching the loop.
		res := runFrom(t, r.dir, kind, "record", "--interactive")
		if res.code != 2 || !strings.Contains(res.stderr, "--interactive asks a person") || !strings.Contains(res.stderr, "--by NAME") {
			t.Errorf("record --interactive from %s: exit %d, stderr %q; want exit 2", kind, res.code, res.stderr)
		}
	}
	if after, _ := os.ReadFile(stateFile(r, id)); !bytes.Equal(after, before) {
		t.Error("a refused decision changed the loop's state")
	}
	if got := decisions(t, r, id); len(got) != 0 {
		t.Errorf("decisions recorded without a decider: %q", got)
	}
	if res := runGate(t, r.dir, "", "status"); !strings.Contains(res.stdout, "Waiting for a human decision") {
		t.Errorf("the gate is no longer pending after refused decisions:\n%s", res.stdout)
	}

	// With --by the decision is taken, from /dev/null too, and names its decider.
	if res := runFrom(t, r.dir, fromDevNull, "approve", "--by", "ana"); res.code != 0 || !strings.Contains(res.stdout, "approved iteration 1") {
		t.Fatalf("approve --by ana </dev/null: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if got := decisions(t, r, id); len(got) != 1 || got[0] != "approve - by ana" {
		t.Errorf("decisions = %q, want [approve - by ana]", got)
	}
	deleteLoopTest(t, r, "TestMul")
	if res := runFrom(t, r.dir, fromPipe, "abort", "--by", "ops"); res.code != 0 || !strings.Contains(res.stdout, id+": paused -> aborted") {
		t.Fatalf("abort --by ops from a pipe: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if got := decisions(t, r, id); len(got) != 2 || got[1] != "abort - by ops" {
		t.Errorf("decisions = %q, want the gate answered with [... abort - by ops]", got)
	}
	if got := stopReason(t, r, id); got != "aborted by ops" {
		t.Errorf("stop_reason = %q, want aborted by ops", got)
	}
	validateLoopFiles(t, r, id)
}

// TestAbortWithoutAPendingGate: aborting a loop ends it for good, a human's
// decision even when no gate waits (the guard denies it to an agent): from a
// script it needs --by too, and the name is the loop's stop_reason.
func TestAbortWithoutAPendingGate(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	id := startLoop(t, r, "--task", "abort me", "--completion", "false", "--collect", "none")
	for _, kind := range notTerminals {
		if res := runFrom(t, r.dir, kind, "abort"); res.code != 2 || !strings.Contains(res.stderr, "abort: standard input is not a terminal") {
			t.Errorf("abort from %s: exit %d, stderr %q; want exit 2", kind, res.code, res.stderr)
		}
	}
	if st := readState(t, r, id); st["status"] != "running" {
		t.Fatalf("status after refused aborts = %v, want running", st["status"])
	}
	res := runFrom(t, r.dir, fromDevNull, "abort", "--by", "ops", "--format", "json")
	if res.code != 0 || !strings.Contains(res.stdout, `"to": "aborted"`) {
		t.Fatalf("abort --by ops: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if got := stopReason(t, r, id); got != "aborted by ops" {
		t.Errorf("stop_reason = %q, want aborted by ops", got)
	}
	if res := runGate(t, r.dir, "", "status", "--loop", id); !strings.Contains(res.stdout, "aborted by ops") {
		t.Errorf("status does not say who aborted:\n%s", res.stdout)
	}
	validateLoopFiles(t, r, id)
}

// TestHookInputNotFromGitOrClaude: the pre-push hook and the guard read
// their input from a program; /dev/null is not git's input, and checking
// nothing must not pass. A Stop hook that cannot read its input lets the
// agent stop (a hook never traps the session; record checks the work),
// saying why.
func TestHookInputNotFromGitOrClaude(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		kind       stdinKind
		args       []string
		code       int
		wantStderr string
	}{
		{fromDevNull, []string{"hook", "pre-push"}, 2, "which is a character device such as /dev/null, not git's pipe"},
		{fromDevNull, []string{"guard", "pre-tool-use"}, 2, "hook input is empty"},
		{fromPipe, []string{"guard", "pre-tool-use"}, 2, "hook input is not a JSON object"},
		{fromPipe, []string{"guard", "stop"}, 0, "hook input is not a JSON object; the agent may stop"},
	} {
		res := runFrom(t, dir, tc.kind, tc.args...)
		if res.code != tc.code || !strings.Contains(res.stderr, tc.wantStderr) {
			t.Errorf("%v from %s: exit %d, stderr %q; want exit %d and %q", tc.args, tc.kind, res.code, res.stderr, tc.code, tc.wantStderr)
		}
	}
	// A pipe with no ref lines is git's when everything is up to date.
	if res := runGate(t, dir, "", "hook", "pre-push"); res.code != 0 || !strings.Contains(res.stderr, "nothing to check") {
		t.Errorf("hook pre-push from an empty pipe: exit %d, stderr %q", res.code, res.stderr)
	}
}
