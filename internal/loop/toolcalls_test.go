package loop

import (
	"os"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// TestToolCalls: the tool-call log is appended to, read back past torn
// lines, and summarized.
func TestToolCalls(t *testing.T) {
	t.Parallel()
	s := state.NewStore(t.TempDir())
	id := "ralph-calls-01234567"
	if calls, err := s.ToolCalls(id); err != nil || calls != nil {
		t.Errorf("no log: %v, %v", calls, err)
	}
	if err := s.AppendToolCall("not an id", state.ToolCall{}); err == nil {
		t.Error("AppendToolCall accepted a bad loop id")
	}
	if err := s.AppendToolCall(id, state.ToolCall{Tool: "Bash"}); err == nil {
		t.Error("AppendToolCall wrote into a loop directory that does not exist")
	}
	if err := os.MkdirAll(s.LoopDir(id), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendToolCall(id, state.ToolCall{Tool: "Bash", Command: strings.Repeat("y", state.MaxToolCallText+10), Iteration: 2}); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(s.ToolCallsPath(id), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("\n{\"tool\":\"Ed\n")
	f.Close()
	if err := s.AppendToolCall(id, state.ToolCall{Tool: "Write", File: "a.go", Risky: true, Risk: "test_file_modification"}); err != nil {
		t.Fatal(err)
	}
	calls, err := s.ToolCalls(id)
	if err != nil || len(calls) != 2 {
		t.Fatalf("calls = %+v, %v", calls, err)
	}
	if c := calls[0].Command; len(c) != state.MaxToolCallText+3 || !strings.HasSuffix(c, "...") || calls[0].Iteration != 2 {
		t.Errorf("long command kept as %d bytes", len(c))
	}
	sum := SummarizeToolCalls(append(calls, state.ToolCall{Tool: "Stop", Event: state.EventStopBlocked}, state.ToolCall{Tool: "Bash", Event: state.EventDenied, LatencyMS: 4}))
	if sum.Total != 2 || sum.ByTool["Bash"] != 1 || sum.ByTool["Write"] != 1 || len(sum.Risky) != 1 || sum.StopBlocks != 1 || sum.Denied != 1 ||
		len(sum.DeniedLatencyMS) != 1 || sum.DeniedLatencyMS[0] != 4 {
		t.Errorf("summary = %+v", sum)
	}
}
