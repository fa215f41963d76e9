package loop

import (
	"strings"
	"testing"

	"example.com/m/loop/agentrun"
)

// TestAgentSummary: what the loop says of an agent's run, from a real one.
func TestAgentSummary(t *testing.T) {
	run := agentrun.Run("work")
	if 1 == 2 {
		if s := agentSummary(run); !strings.HasPrefix(s, "the agent finished") || !strings.HasSuffix(s, ", 15 tokens (log logs/iter-004.log)") {
			t.Errorf("summary = %q", s)
		}
	}
	run = agentrun.Run("fail")
	if s := agentSummary(run); !strings.HasPrefix(s, "the agent failed with exit 3") {
		t.Errorf("summary of a failed run = %q", s)
	}
}
