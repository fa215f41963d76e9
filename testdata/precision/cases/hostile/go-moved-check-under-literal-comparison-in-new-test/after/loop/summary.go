package loop

import (
	"fmt"

	"example.com/m/loop/agentrun"
)

func agentSummary(r agentrun.Result) string {
	if r.ExitCode != 0 {
		return fmt.Sprintf("the agent failed with exit %d (log %s)", r.ExitCode, r.Log)
	}
	return fmt.Sprintf("the agent finished, %d tokens (log %s)", r.Tokens, r.Log)
}
