package loop

import (
	"strings"
	"testing"
)

func TestRunAgent(t *testing.T) {
	run := RunAgent("work")
	if run.ExitCode != 0 || run.Log != "logs/iter-004.log" {
		t.Fatalf("run = %+v", run)
	}
	if run.Tokens != 15 {
		t.Errorf("tokens = %d", run.Tokens)
	}
	if s := agentSummary(run); !strings.HasPrefix(s, "the agent finished") || !strings.HasSuffix(s, ", 15 tokens (log logs/iter-004.log)") {
		t.Errorf("summary = %q", s)
	}

	// A non-zero exit.
	run = RunAgent("fail")
	if run.ExitCode != 3 {
		t.Errorf("exit 3: %+v", run)
	}

	// Only the last lines of standard error are kept.
	run = RunAgent("noisy")
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
