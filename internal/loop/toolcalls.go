package loop

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// ToolCallSummary counts a loop's tool calls: the seeds' tool_call_history
// by tool, and its risky_actions.
type ToolCallSummary struct {
	Total  int            `json:"total"`
	ByTool map[string]int `json:"by_tool"`
	// Risky lists the risky actions in order.
	Risky []state.ToolCall `json:"risky_actions"`
	// StopBlocks and StopReleases count the Stop hook's events.
	StopBlocks   int              `json:"stop_blocks"`
	StopReleases []state.ToolCall `json:"stop_releases,omitempty"`
	// Denied counts the calls the PreToolUse hook denied.
	Denied int `json:"denied"`
	// RegressionsDetected are the regressions the PostToolUse hook found
	// after destructive calls.
	RegressionsDetected []state.ToolCall `json:"regressions_detected,omitempty"`
	// DeniedLatencyMS are their detection latencies.
	DeniedLatencyMS []int `json:"-"`
}

// SummarizeToolCalls counts calls.
func SummarizeToolCalls(calls []state.ToolCall) ToolCallSummary {
	s := ToolCallSummary{ByTool: map[string]int{}}
	for _, c := range calls {
		switch c.Event {
		case state.EventStopBlocked:
			s.StopBlocks++
			continue
		case state.EventStopReleased:
			s.StopReleases = append(s.StopReleases, c)
			continue
		case state.EventDenied:
			s.Denied++
			s.DeniedLatencyMS = append(s.DeniedLatencyMS, c.LatencyMS)
			continue
		case state.EventRegressionDetected:
			s.RegressionsDetected = append(s.RegressionsDetected, c)
			continue
		case "":
		default:
			continue
		}
		s.Total++
		s.ByTool[c.Tool]++
		if c.Risky {
			s.Risky = append(s.Risky, c)
		}
	}
	return s
}

// ToolCallHistory is the seeds' tool_call_history: the tool calls of the
// log, without the guard's own events (never nil).
func ToolCallHistory(calls []state.ToolCall) []state.ToolCall {
	out := []state.ToolCall{}
	for _, c := range calls {
		if c.Event == "" {
			out = append(out, c)
		}
	}
	return out
}

// writeToolCalls adds the guard's counts to the persistence view, read from
// the loop's work tree; nothing when the guard logged nothing.
func writeToolCalls(b *strings.Builder, st *state.State) {
	if st.WorkingDirectory == "" {
		return
	}
	calls, err := state.NewStore(st.WorkingDirectory).ToolCalls(st.LoopID)
	if err != nil || len(calls) == 0 {
		return
	}
	s := SummarizeToolCalls(calls)
	if s.Total == 0 && s.Denied == 0 && s.StopBlocks == 0 && len(s.StopReleases) == 0 && len(s.RegressionsDetected) == 0 {
		return
	}
	tools := make([]string, 0, len(s.ByTool))
	for t := range s.ByTool {
		tools = append(tools, t)
	}
	sort.Strings(tools)
	var parts []string
	for _, t := range tools {
		parts = append(parts, fmt.Sprintf("%s %d", t, s.ByTool[t]))
	}
	fmt.Fprintf(b, "  Tool Calls: %d", s.Total)
	if len(parts) > 0 {
		fmt.Fprintf(b, " (%s)", strings.Join(parts, ", "))
	}
	b.WriteString("\n")
	fmt.Fprintf(b, "  Risky Actions: %d", len(s.Risky))
	if n := len(s.Risky); n > 0 {
		byRisk := map[string]int{}
		for _, r := range s.Risky {
			byRisk[r.Risk]++
		}
		risks := make([]string, 0, len(byRisk))
		for r, c := range byRisk {
			risks = append(risks, fmt.Sprintf("%s %d", r, c))
		}
		sort.Strings(risks)
		last := s.Risky[n-1]
		what := last.File
		if what == "" {
			what = last.Command
		}
		if len(what) > 80 {
			what = what[:80] + "..."
		}
		fmt.Fprintf(b, " (%s); last: %s %s", strings.Join(risks, ", "), last.Tool, what)
	}
	b.WriteString("\n")
	if s.Denied > 0 {
		fmt.Fprintf(b, "  Denied Tool Calls: %d (decided in p95 %d ms)\n", s.Denied, percentile(s.DeniedLatencyMS, 95))
	}
	if n := len(s.RegressionsDetected); n > 0 {
		last := s.RegressionsDetected[n-1]
		fmt.Fprintf(b, "  Regressions Detected After Tool Calls: %d (last: iteration %d, %s)\n", n, last.Iteration, headOf(last.Detail, 120))
	}
	if s.StopBlocks > 0 || len(s.StopReleases) > 0 {
		fmt.Fprintf(b, "  Stop Hook: blocked %d time(s)", s.StopBlocks)
		if n := len(s.StopReleases); n > 0 {
			fmt.Fprintf(b, "; let the agent stop %d time(s) with the work still failing (last %s): look at it", n, s.StopReleases[n-1].Timestamp.UTC().Format(time.RFC3339))
		}
		b.WriteString("\n")
	}
}

// headOf keeps the first n bytes of s, on a character boundary.
func headOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "..."
}
