//go:build linux

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/terminal/ptytest"
)

// promptWriter collects what the program writes and types answer on the
// terminal once prompt has appeared: a person answers what they see, and
// nothing else the program starts can read the answer first.
type promptWriter struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	prompt  string
	answer  string
	typed   bool
	typeErr error
	tty     *os.File
}

func (w *promptWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if !w.typed && w.prompt != "" && strings.Contains(w.buf.String(), w.prompt) {
		w.typed = true
		_, w.typeErr = w.tty.WriteString(w.answer)
	}
	return len(p), nil
}

func (w *promptWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// runOnTerminal runs the binary in dir as a person at a terminal does: its
// standard input is a pseudo-terminal (its controlling terminal, in a
// session of its own) and USER is user. When prompt appears on standard
// error, answer is typed on the terminal. Standard output and error are
// pipes, read by the test.
func runOnTerminal(t *testing.T, dir, user, prompt, answer string, args ...string) result {
	t.Helper()
	controller, tty := ptytest.Open(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "USER="+user, "LOGNAME="+user)
	cmd.Stdin = tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	var out bytes.Buffer
	errw := &promptWriter{prompt: prompt, answer: answer, tty: controller}
	cmd.Stdout, cmd.Stderr = &out, errw
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%v on a terminal did not end in time: stderr %q", args, errw.String())
	}
	if errw.typeErr != nil {
		t.Fatalf("type %q on the terminal: %v", answer, errw.typeErr)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, out.String(), errw.String()}
}

// TestDecisionsAtATerminal: at a real terminal the person there decides
// without --by, recorded as the user ($USER): approve, abort, and record
// --interactive's answer. The hook and the guard refuse a terminal: their
// input comes from git and Claude Code.
func TestDecisionsAtATerminal(t *testing.T) {
	t.Parallel()
	r, id := blockedLoop(t)
	res := runOnTerminal(t, r.dir, "pty-user", "", "", "approve")
	if res.code != 0 || !strings.Contains(res.stdout, "approved iteration 1") {
		t.Fatalf("approve on a terminal: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if got := decisions(t, r, id); len(got) != 1 || got[0] != "approve - by pty-user" {
		t.Errorf("decisions = %q, want [approve - by pty-user]", got)
	}
	// --by still names someone else at a terminal.
	deleteLoopTest(t, r, "TestMul")
	if res := runOnTerminal(t, r.dir, "pty-user", "", "", "reject", "--by", "reviewer"); res.code != 0 {
		t.Fatalf("reject --by reviewer on a terminal: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if got := decisions(t, r, id); len(got) != 2 || !strings.HasPrefix(got[1], "reject - by reviewer;") {
		t.Errorf("decisions = %q, want [... reject - by reviewer; ...]", got)
	}

	// record --interactive asks on the terminal; the answer is the user's.
	r.write("calc_test.go", strings.Split(loopCalcTest, "func TestAdd")[0]+"func TestSub"+strings.Split(loopCalcTest, "func TestSub")[1])
	r.commit("delete TestAdd")
	res = runOnTerminal(t, r.dir, "pty-user", "a[b]ort the loop? ", "b\n", "record", "--interactive")
	if res.code != 0 || !strings.Contains(res.stdout, "aborted "+id) {
		t.Fatalf("record --interactive, answered b: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if got := decisions(t, r, id); len(got) != 3 || got[2] != "abort - by pty-user" {
		t.Errorf("decisions = %q, want [... abort - by pty-user]", got)
	}
	if got := stopReason(t, r, id); got != "aborted by pty-user" {
		t.Errorf("stop_reason = %q, want aborted by pty-user", got)
	}
	validateLoopFiles(t, r, id)

	// Hook input never comes from a person's terminal.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"hook", "pre-push"}, "which is a terminal"},
		{[]string{"guard", "pre-tool-use"}, "reads Claude Code's hook JSON on standard input"},
	} {
		if res := runOnTerminal(t, r.dir, "pty-user", "", "", tc.args...); res.code != 2 || !strings.Contains(res.stderr, tc.want) {
			t.Errorf("%v on a terminal: exit %d, stderr %q; want exit 2 and %q", tc.args, res.code, res.stderr, tc.want)
		}
	}
}

// TestAbortAtATerminal: without a pending gate, abort at a terminal is the
// user's, named in the loop's stop_reason.
func TestAbortAtATerminal(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	id := startLoop(t, r, "--task", "abort here", "--completion", "false", "--collect", "none")
	if res := runOnTerminal(t, r.dir, "pty-user", "", "", "abort"); res.code != 0 || !strings.Contains(res.stdout, "running -> aborted") {
		t.Fatalf("abort on a terminal: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if got := stopReason(t, r, id); got != "aborted by pty-user" {
		t.Errorf("stop_reason = %q, want aborted by pty-user", got)
	}
}
