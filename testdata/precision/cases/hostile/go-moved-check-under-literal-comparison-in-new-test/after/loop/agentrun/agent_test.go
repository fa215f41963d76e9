package agentrun

import (
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	run := Run("work")
	if run.ExitCode != 0 || run.Log != "logs/iter-004.log" {
		t.Fatalf("run = %+v", run)
	}
	if run.Tokens != 15 {
		t.Errorf("tokens = %d", run.Tokens)
	}

	// A non-zero exit.
	run = Run("fail")
	if run.ExitCode != 3 {
		t.Errorf("exit 3: %+v", run)
	}

	// Only the last lines of standard error are kept.
	run = Run("noisy")
	if lines := strings.Split(run.Stderr, "\n"); len(lines) != 3 || lines[0] != "line 7" || lines[2] != "line 9" {
		t.Errorf("stderr tail = %q", run.Stderr)
	}
	if run.Log != "logs/iter-006.log" || run.ExitCode != 0 {
		t.Errorf("noisy run = %+v", run)
	}
	if !strings.Contains(run.Stderr, "line 8") {
		t.Errorf("stderr = %q", run.Stderr)
	}
}
