package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCompareInterrupted: Ctrl-C while compare runs the project's tests stops
// them, removes the worktree compare measured in, and exits 130 saying it
// was interrupted (not an internal error, exit 3).
func TestCompareInterrupted(t *testing.T) {
	t.Parallel()
	r := goModule(t)
	base := r.git("rev-parse", "HEAD")
	marker := filepath.Join(t.TempDir(), "running")
	r.write("slow_test.go", "package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n\t\"time\"\n)\n\n"+
		"func TestSlow(t *testing.T) {\n\tos.WriteFile(\""+marker+"\", nil, 0o644)\n\ttime.Sleep(2 * time.Minute)\n}\n")
	head := r.commit("a slow test")

	cmd := exec.Command(binary, "compare", "--format", "json", base, head)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the slow test never started:\n%s", stderr.String())
		}
	}
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("compare after SIGINT: %v, want exit 130\n%s", err, stderr.String())
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("compare took %s to stop", d)
	}
	if !strings.Contains(stderr.String(), "ralph-gate: interrupted") || strings.Contains(stderr.String(), "context canceled") {
		t.Errorf("stderr does not say it was interrupted:\n%s", stderr.String())
	}
	if wt := r.git("worktree", "list"); strings.Count(wt, "\n") > 0 {
		t.Errorf("worktrees left behind:\n%s", wt)
	}
}
