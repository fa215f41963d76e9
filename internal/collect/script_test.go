package collect

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunScript runs scripts the way a CI step runs: -e stops at the first
// failure and its status is the run's, pipefail only where the step asks,
// the step's env is set over a scrubbed environment (a credential, even one
// the step names, never reaches the script), the test runners are asked to
// name their tests, and a directory outside the checkout is refused.
func TestRunScript(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	environ := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "GITHUB_TOKEN=hunter2", "GOFLAGS=-mod=mod"}
	run := func(s Script) *ScriptRun {
		t.Helper()
		if s.Shell == "" {
			s.Shell = "bash"
		}
		s.Name = "step"
		r, err := RunScript(context.Background(), root, s, RunOptions{Environ: environ, Isolate: true})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := run(Script{Src: "false\necho after\n"}); r.ExitCode != 1 || strings.Contains(string(r.Output), "after") {
		t.Errorf("-e: exit %d, output %q", r.ExitCode, r.Output)
	}
	if r := run(Script{Src: "false | true\n"}); r.ExitCode != 0 {
		t.Errorf("no pipefail: exit %d", r.ExitCode)
	}
	if r := run(Script{Src: "false | true\n", Pipefail: true}); r.ExitCode == 0 {
		t.Error("pipefail: exit 0")
	}
	if r := run(Script{Shell: "sh", Src: "exit 3\n"}); r.ExitCode != 3 {
		t.Errorf("sh: exit %d", r.ExitCode)
	}
	r := run(Script{Src: "pwd; echo token=$GITHUB_TOKEN step=$STEP_VAR api=$API_TOKEN goflags=$GOFLAGS pytest=$PYTEST_ADDOPTS home=$HOME\n", Dir: "sub",
		Env: map[string]string{"STEP_VAR": "x", "API_TOKEN": "from-the-step"}})
	out := string(r.Output)
	for _, want := range []string{filepath.Join(root, "sub"), "token= ", "step=x ", "api= ", "goflags=-mod=mod -v ", "pytest=-rA "} {
		if !strings.Contains(out, want) {
			t.Errorf("output %q lacks %q", out, want)
		}
	}
	if strings.Contains(out, "home="+environ[1][5:]) {
		t.Errorf("isolated run kept the user's HOME: %q", out)
	}
	for _, dir := range []string{"..", "../x", "missing"} {
		if _, err := RunScript(context.Background(), root, Script{Name: "step", Shell: "bash", Src: "true", Dir: dir}, RunOptions{Environ: environ}); err == nil {
			t.Errorf("dir %q: no error", dir)
		}
	}
	if _, err := RunScript(context.Background(), root, Script{Name: "step", Shell: "pwsh", Src: "true"}, RunOptions{Environ: environ}); err == nil {
		t.Error("pwsh: no error")
	}
}

func TestCappedOutput(t *testing.T) {
	c := &capped{max: 4}
	for _, p := range []string{"ab", "cde", "f"} {
		if n, err := c.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("write %q: %d, %v", p, n, err)
		}
	}
	if string(c.b) != "abcd" || !c.dropped {
		t.Errorf("kept %q, dropped %v", c.b, c.dropped)
	}
}
