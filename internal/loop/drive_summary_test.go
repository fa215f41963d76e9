package loop

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/loop/agentrun"
)

// TestAgentSummary: what run says of an agent's run, from a real one: how
// it ended, how long it took, its usage and its log.
func TestAgentSummary(t *testing.T) {
	dir := t.TempDir()
	prompt := filepath.Join(dir, "prompt.md")
	if err := os.WriteFile(prompt, []byte("do the task\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := agentrun.Spec{Command: `echo '` + claudeLine + `'`, Dir: dir, Prompt: prompt, LoopID: "ralph-agent-01234567", Iteration: 4,
		Timeout: time.Minute, Log: filepath.Join(dir, "logs", "iter-004.log")}
	run := agentrun.Run(context.Background(), spec)
	if s := agentSummary(run); !strings.HasPrefix(s, "the agent finished in ") || !strings.HasSuffix(s, ", 15 tokens, $0.0100 (log logs/iter-004.log)") {
		t.Errorf("summary = %q", s)
	}
	run = agentrun.Run(context.Background(), agentrun.Spec{Command: "exit 3", Dir: dir, Prompt: prompt, Log: filepath.Join(dir, "logs", "iter-005.log")})
	if s := agentSummary(run); !strings.Contains(s, " in ") || !strings.HasSuffix(s, ", usage not reported (log logs/iter-005.log)") {
		t.Errorf("summary of a failed run = %q", s)
	}
}
