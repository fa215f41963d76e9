package ghaction

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
