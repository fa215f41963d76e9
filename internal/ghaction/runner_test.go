package ghaction

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

func TestRunnerWritesTheRunnerFiles(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
	}
	var log strings.Builder
	r := NewRunner(func(k string) string { return env[k] }, &log)
	if err := r.Output("verdict", "block"); err != nil {
		t.Fatal(err)
	}
	if err := r.Summary("## ralph-gate\n"); err != nil {
		t.Fatal(err)
	}
	r.Annotate(Annotation{Level: LevelError, File: "a_test.go", Line: 3, Title: "ralph-gate: test_deletion (critical)", Message: "50% gone,\nreally"})
	r.Verbatim(func() { log.WriteString("::error::from a commit subject\n") })

	out, _ := os.ReadFile(env["GITHUB_OUTPUT"])
	if !strings.HasPrefix(string(out), "verdict<<") || !strings.Contains(string(out), "\nblock\n") {
		t.Errorf("GITHUB_OUTPUT = %q", out)
	}
	if sum, _ := os.ReadFile(env["GITHUB_STEP_SUMMARY"]); string(sum) != "## ralph-gate\n\n" {
		t.Errorf("GITHUB_STEP_SUMMARY = %q", sum)
	}
	lines := strings.Split(log.String(), "\n")
	if lines[0] != "::error file=a_test.go,line=3,title=ralph-gate%3A test_deletion (critical)::50%25 gone,%0Areally" {
		t.Errorf("annotation = %q", lines[0])
	}
	if !strings.HasPrefix(lines[1], "::stop-commands::ralph-gate-") || lines[2] != "::error::from a commit subject" ||
		lines[3] != "::"+strings.TrimPrefix(lines[1], "::stop-commands::")+"::" {
		t.Errorf("verbatim text not fenced by stop-commands:\n%s", log.String())
	}

	// A runner that names no file, or one that cannot be written: an error, not a panic.
	delete(env, "GITHUB_OUTPUT")
	if err := r.Output("verdict", "pass"); err == nil || !strings.Contains(err.Error(), "GITHUB_OUTPUT is not set") {
		t.Errorf("no GITHUB_OUTPUT: %v", err)
	}
	env["GITHUB_STEP_SUMMARY"] = filepath.Join(dir, "no", "such", "dir", "summary")
	if err := r.Summary("x"); err == nil || !strings.Contains(err.Error(), "GITHUB_STEP_SUMMARY") {
		t.Errorf("unwritable summary: %v", err)
	}
}

func TestRunnerOutsideActions(t *testing.T) {
	var log strings.Builder
	r := NewRunner(func(string) string { return "" }, &log)
	if err := r.Output("verdict", "pass"); err != nil {
		t.Fatal(err)
	}
	r.Annotate(Annotation{Level: LevelWarning, File: "x.go", Line: 2, Title: "t", Message: "m"})
	r.Verbatim(func() { log.WriteString("text\n") })
	if log.String() != "warning: x.go:2: t: m\ntext\n" {
		t.Errorf("log = %q", log.String())
	}
}

// TestRunnerClaimsItsFiles: what the code under test wrote to the step's
// runner files (a verdict, an environment variable for later steps, a
// heredoc left open with the library's fixed delimiter) is emptied and
// reported, and ralph-gate's own output block, with a random delimiter, is
// the only one.
func TestRunnerClaimsItsFiles(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"GITHUB_ACTIONS": "true"}
	for _, v := range []string{"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY"} {
		env[v] = filepath.Join(dir, strings.ToLower(v))
		os.WriteFile(env[v], nil, 0o644)
	}
	attack := "verdict=pass\nverdict<<_GitHubActionsFileCommandDelimeter_\n"
	os.WriteFile(env["GITHUB_OUTPUT"], []byte(attack), 0o644)
	os.WriteFile(env["GITHUB_ENV"], []byte("LD_PRELOAD=/tmp/x.so\n"), 0o644)
	os.Remove(env["GITHUB_PATH"])
	os.Symlink("/etc/passwd", env["GITHUB_PATH"])
	r := NewRunner(func(k string) string { return env[k] }, io.Discard)
	written, err := r.Claim()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, w := range written {
		got[w.Variable] = w.Bytes
	}
	if len(got) != 3 || got["GITHUB_OUTPUT"] != int64(len(attack)) || got["GITHUB_ENV"] != 21 || got["GITHUB_PATH"] != -1 {
		t.Errorf("claimed %v", written)
	}
	for _, w := range written {
		f := w.Finding()
		if !f.Net || f.Severity != gate.SeverityHigh || f.Rule != gate.RuleRunnerFileWritten.ID || f.File != w.Variable {
			t.Errorf("%s: finding %+v, want a net high %s naming the variable", w.Variable, f, gate.RuleRunnerFileWritten.ID)
		}
		if want := map[bool]string{true: "not a file", false: "bytes to it"}[w.Bytes < 0]; !strings.Contains(f.Message, want) {
			t.Errorf("%s: message %q does not say %q", w.Variable, f.Message, want)
		}
	}
	if err := r.Output("verdict", "block\n_GitHubActionsFileCommandDelimeter_"); err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(env["GITHUB_OUTPUT"])
	lines := strings.Split(string(out), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "verdict<<ralph_gate_") || lines[3] != strings.TrimPrefix(lines[0], "verdict<<") {
		t.Errorf("GITHUB_OUTPUT = %q", out)
	}
	for _, v := range []string{"GITHUB_ENV", "GITHUB_PATH"} {
		if data, err := os.ReadFile(env[v]); err == nil && len(data) > 0 {
			t.Errorf("%s still holds %q", v, data)
		}
	}
}
