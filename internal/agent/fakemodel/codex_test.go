package fakemodel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/agent"
	"github.com/ralph-gate/ralph-gate/internal/agent/clients"
	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// The end-to-end tests below run the real Codex CLI (RALPH_GATE_CODEX: the
// path of the codex binary, recorded with codex-cli 0.169.0) against
// StartOpenAI. They skip without it, and fail instead when
// RALPH_GATE_REQUIRE_CODEX is set. Nothing but 127.0.0.1 is contacted:
// everything Codex would fetch on its own is switched off in codexConfig,
// and the tests pass inside `unshare -n` (see testdata/codex/README.md).

func TestMain(m *testing.M) {
	// The test binary doubles as the hook and the MCP server Codex starts.
	switch {
	case os.Getenv(hookEnv) != "":
		os.Exit(runHook(os.Getenv(hookEnv), os.Getenv(hookLogEnv), os.Stdin, os.Stdout))
	case os.Getenv(mcpEnv) != "":
		os.Exit(runMCP(os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// codexBinary is the codex binary to test against.
func codexBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("drives the real codex for seconds: go test without -short runs it, as .ci/run does")
	}
	bin := os.Getenv("RALPH_GATE_CODEX")
	required := os.Getenv("RALPH_GATE_REQUIRE_CODEX") != ""
	if bin == "" {
		if required {
			t.Fatal("RALPH_GATE_REQUIRE_CODEX is set but RALPH_GATE_CODEX (the path of the codex binary) is not")
		}
		t.Skip("RALPH_GATE_CODEX (the path of the codex binary, codex-cli 0.169.0) is not set")
	}
	fi, err := os.Stat(bin)
	if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		t.Fatalf("RALPH_GATE_CODEX=%s is not an executable file", bin)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", bin, err)
	}
	if v := strings.TrimSpace(string(out)); v != "codex-cli 0.169.0" {
		t.Logf("testing %s; the fixtures were recorded with codex-cli 0.169.0", v)
	}
	return bin
}

// codexConfig is the config.toml of a test's CODEX_HOME: the fake model
// provider, and nothing that would reach another host (plugin marketplace
// sync, analytics, telemetry, update checks) or let the agent's commands
// escape the hooks (unified exec's TTY sessions, whose standard input
// write_stdin feeds without any hook seeing it).
func codexConfig(url string) string {
	// The tests here keep interactive shells off in the configuration;
	// ralph-gate's preset does it with --disable unified_exec_tty.
	return strings.Replace(CodexConfig(url), "plugins = false\n", "plugins = false\nunified_exec_tty = false\n", 1)
}

// codexRun is one `codex exec` as it ended.
type codexRun struct {
	Stdout, Stderr string
	// Lines are the JSON lines of standard output, decoded.
	Lines []map[string]any
	Err   error
	State *os.ProcessState
}

// codexSetup is a repository and a CODEX_HOME for one run.
type codexSetup struct {
	Bin, Dir, Home string
	// Args come after `codex exec --json -s workspace-write`.
	Args []string
	// Signal, if set, sees each JSON line codex prints; the signal it
	// returns (if any) is sent to codex.
	Signal func(line map[string]any) os.Signal
}

// newCodexSetup makes a repository with a first commit and a CODEX_HOME
// whose config.toml points at srv.
func newCodexSetup(t *testing.T, bin string, srv *Server, files map[string]string) *codexSetup {
	t.Helper()
	dir := testgit.Init(t)
	for path, content := range files {
		testgit.Write(t, dir, path, content)
	}
	testgit.Commit(t, dir, "init")
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".codex", "config.toml"), []byte(codexConfig(srv.URL)), 0o644); err != nil {
		t.Fatal(err)
	}
	return &codexSetup{Bin: bin, Dir: dir, Home: home}
}

// run runs `codex exec --json -s workspace-write ARGS` in the repository
// with the prompt on standard input, as `ralph-gate run` does, in its own
// process group, bounded by timeout.
func (c *codexSetup) run(t *testing.T, prompt string, timeout time.Duration) *codexRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	args := append([]string{"exec", "--json", "-s", "workspace-write"}, c.Args...)
	cmd := exec.CommandContext(ctx, c.Bin, args...)
	cmd.Dir = c.Dir
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + c.Home,
		"CODEX_HOME=" + filepath.Join(c.Home, ".codex"),
		"FAKEMODEL_API_KEY=sk-fakemodel",
		"LANG=C.UTF-8",
	}
	cmd.Stdin = strings.NewReader(prompt)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stderr bytes.Buffer
	stdout := &lineWatcher{}
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	if c.Signal != nil {
		stdout.watch = func(line map[string]any) {
			if sig := c.Signal(line); sig != nil {
				_ = cmd.Process.Signal(sig)
			}
		}
	}
	err := cmd.Start()
	if err != nil {
		t.Fatalf("start codex: %v", err)
	}
	err = cmd.Wait()
	// What codex left in its process group goes with it.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if ctx.Err() != nil {
		t.Fatalf("codex ran past %s; stderr:\n%s", timeout, stderr.String())
	}
	run := &codexRun{Stdout: stdout.String(), Stderr: stderr.String(), Err: err, State: cmd.ProcessState}
	for _, l := range strings.Split(strings.TrimSpace(run.Stdout), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("codex --json printed a line that is not JSON: %q", l)
		}
		run.Lines = append(run.Lines, m)
	}
	return run
}

// lineWatcher keeps what is written and hands each complete JSON line to
// watch.
type lineWatcher struct {
	buf   bytes.Buffer
	done  int
	watch func(map[string]any)
}

func (w *lineWatcher) Write(p []byte) (int, error) {
	w.buf.Write(p)
	for {
		rest := w.buf.Bytes()[w.done:]
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			break
		}
		var m map[string]any
		if w.watch != nil && json.Unmarshal(rest[:i], &m) == nil {
			w.watch(m)
		}
		w.done += i + 1
	}
	return len(p), nil
}

func (w *lineWatcher) String() string { return w.buf.String() }

// types lists the lines' types, with an item's type after a colon.
func (r *codexRun) types() []string {
	var out []string
	for _, l := range r.Lines {
		typ := str(l["type"])
		if item, ok := l["item"].(map[string]any); ok {
			typ += ":" + str(item["type"])
		}
		out = append(out, typ)
	}
	return out
}

// mustSucceed fails the test unless codex exited 0.
func (r *codexRun) mustSucceed(t *testing.T) {
	t.Helper()
	if r.Err != nil {
		t.Fatalf("codex exec: %v\nstdout:\n%s\nstderr:\n%s", r.Err, r.Stdout, r.Stderr)
	}
}

// lastOutput is the output of the last tool call in a request's input.
func lastOutput(r Request) string {
	input, _ := r.Body["input"].([]any)
	for i := len(input) - 1; i >= 0; i-- {
		item, _ := input[i].(map[string]any)
		switch item["type"] {
		case "function_call_output", "custom_tool_call_output":
			if s, ok := item["output"].(string); ok {
				return s
			}
			b, _ := json.Marshal(item["output"])
			return string(b)
		}
	}
	return ""
}

// outputHas is a When that wants the last tool output to contain s.
func outputHas(s string) func(Request) error {
	return func(r Request) error {
		if out := lastOutput(r); !strings.Contains(out, s) {
			return fmt.Errorf("the last tool output %q does not contain %q", out, s)
		}
		return nil
	}
}

var codexUsage = Usage{InputTokens: 1000, OutputTokens: 50, CachedInputTokens: 400, CacheWriteTokens: 30, ReasoningTokens: 7}

const editPatch = `*** Begin Patch
*** Add File: added.txt
+added by apply_patch
*** Update File: README.md
@@
 # demo
-old line
+new line
*** Delete File: obsolete.txt
*** End Patch
`

// TestCodexExecEditsAndRuns drives the real codex through a shell command
// that writes a file, an apply_patch that adds, updates and deletes files,
// and a final answer, with the sandbox and approvals of the preset: the
// files change on disk, each tool's output goes back to the model, and
// the --json usage lines add up to what the server reported.
func TestCodexExecEditsAndRuns(t *testing.T) {
	bin := codexBinary(t)
	srv := StartOpenAI(t, []Turn{
		{Text: "Writing a file.", Calls: []Call{{Name: "exec_command", Input: map[string]any{"cmd": "printf 'from the shell\\n' > shell.txt && cat shell.txt", "login": false}}}},
		{Calls: []Call{{Name: "apply_patch", Input: editPatch}}, When: outputHas("from the shell")},
		{Text: "All done.", When: outputHas("Success. Updated the following files")},
	}, Options{Timeout: 2 * time.Minute, Usage: codexUsage})
	setup := newCodexSetup(t, bin, srv, map[string]string{"README.md": "# demo\nold line\n", "obsolete.txt": "bye\n"})
	run := setup.run(t, "Make the demo files.", 3*time.Minute)
	run.mustSucceed(t)
	srv.Check()

	for path, want := range map[string]string{"shell.txt": "from the shell\n", "added.txt": "added by apply_patch\n", "README.md": "# demo\nnew line\n"} {
		if got, err := os.ReadFile(filepath.Join(setup.Dir, path)); err != nil || string(got) != want {
			t.Errorf("%s = %q (%v), want %q", path, got, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(setup.Dir, "obsolete.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("obsolete.txt is still there (%v)", err)
	}

	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	first := reqs[0]
	if !strings.Contains(first.First, "Make the demo files.") || !strings.Contains(first.First, "<environment_context>") {
		t.Errorf("the first request's opening messages are %q", first.First)
	}
	offered := offeredTools(first.Body)
	if offered["exec_command"] != "function" || offered["apply_patch"] != "custom" {
		t.Errorf("codex offers exec_command as %q and apply_patch as %q, want function and custom", offered["exec_command"], offered["apply_patch"])
	}
	if params := execCommandParams(first.Body); strings.Contains(params, `"tty"`) {
		t.Errorf("exec_command still takes tty with unified_exec_tty off: %s", params)
	}
	if out := lastOutput(reqs[2]); !strings.Contains(out, "A added.txt") || !strings.Contains(out, "M README.md") || !strings.Contains(out, "D obsolete.txt") {
		t.Errorf("apply_patch output to the model = %q", out)
	}

	wantTypes := []string{
		"thread.started", "turn.started",
		"item.completed:agent_message",
		"item.started:command_execution", "item.completed:command_execution",
		"item.started:file_change", "item.completed:file_change",
		"item.completed:agent_message",
		"turn.completed",
	}
	if d := cmp.Diff(wantTypes, run.types()); d != "" {
		t.Errorf("--json lines (-want +got):\n%s\n%s", d, run.Stdout)
	}
	last := run.Lines[len(run.Lines)-1]
	wantUsage := map[string]any{"input_tokens": 3000.0, "cached_input_tokens": 1200.0, "cache_write_input_tokens": 90.0, "output_tokens": 150.0, "reasoning_output_tokens": 21.0}
	if d := cmp.Diff(wantUsage, last["usage"]); d != "" {
		t.Errorf("turn.completed usage (-want +got):\n%s", d)
	}
	golden(t, "exec-edit.jsonl", newCodexNormalizer(setup, "", "").lines(run.Stdout))
	scan := agent.UsageScanner{Clients: clients.All}
	_, _ = scan.Write([]byte(run.Stdout))
	if u := scan.Usage(); u == nil || u.Source != "codex" || u.InputTokens != 3000 || u.OutputTokens != 150 || u.CachedInputTokens != 1200 || u.TotalTokens != 3150 {
		t.Errorf("UsageScanner read %+v from codex's output", u)
	}
}

// execCommandParams is the JSON of exec_command's parameters in a request.
func execCommandParams(body map[string]any) string {
	tools, _ := body["tools"].([]any)
	for _, t := range tools {
		tool, _ := t.(map[string]any)
		if tool["name"] == "exec_command" {
			b, _ := json.Marshal(tool["parameters"])
			return string(b)
		}
	}
	return ""
}

// TestCodexExecExitCodes records how codex exec ends: 1 with a turn.failed
// line when the model API fails, 1 on SIGINT, killed by SIGTERM (it does
// not handle it).
func TestCodexExecExitCodes(t *testing.T) {
	bin := codexBinary(t)
	t.Run("model error", func(t *testing.T) {
		srv := StartOpenAI(t, []Turn{{Status: 400}}, Options{Timeout: time.Minute})
		run := newCodexSetup(t, bin, srv, map[string]string{"README.md": "x\n"}).run(t, "fail", 2*time.Minute)
		srv.Check()
		if code := run.State.ExitCode(); code != 1 {
			t.Errorf("exit code %d, want 1\n%s", code, run.Stderr)
		}
		if d := cmp.Diff([]string{"thread.started", "turn.started", "error", "turn.failed"}, run.types()); d != "" {
			t.Errorf("--json lines (-want +got):\n%s", d)
		}
	})
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			srv := StartOpenAI(t, []Turn{
				{Calls: []Call{{Name: "exec_command", Input: map[string]any{"cmd": "sleep 60", "login": false, "yield_time_ms": 30000}}}},
			}, Options{Timeout: time.Minute})
			setup := newCodexSetup(t, bin, srv, map[string]string{"README.md": "x\n"})
			setup.Signal = func(line map[string]any) os.Signal {
				if item, _ := line["item"].(map[string]any); line["type"] == "item.started" && item["type"] == "command_execution" {
					return sig
				}
				return nil
			}
			start := time.Now()
			run := setup.run(t, "wait", 2*time.Minute)
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("codex took %s to end after %s", d, sig)
			}
			ws := run.State.Sys().(syscall.WaitStatus)
			switch sig {
			case syscall.SIGINT:
				if ws.Signaled() || ws.ExitStatus() != 1 {
					t.Errorf("after SIGINT: %v, want exit status 1", run.State)
				}
			case syscall.SIGTERM:
				if !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
					t.Errorf("after SIGTERM: %v, want killed by SIGTERM", run.State)
				}
			}
		})
	}
}
