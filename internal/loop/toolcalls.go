package loop

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// toolCallsName is the guard's log beside state.json: one line per tool call
// an agent made during the loop (persistence-hooks.yaml's post_tool_call ->
// tool_call_history, with pre_tool_call's risk patterns -> risky_actions),
// and the guard's Stop events. It is a log of its own, not journal entries,
// so that a hook never takes the loop's lock.
const toolCallsName = "tool-calls.jsonl"

// maxToolCallText bounds a command kept in the log.
const maxToolCallText = 2000

// Guard events that are not tool calls.
const (
	// EventStopBlocked: the Stop hook sent the agent back to work.
	EventStopBlocked = "stop_blocked"
	// EventStopReleased: the Stop hook let the agent stop although the work
	// still fails the gate, because it had blocked guard.max_stop_blocks times
	// in a row: a human should look.
	EventStopReleased = "stop_released"
	// EventDenied: the PreToolUse hook denied a call (a finding before the
	// change landed); LatencyMS is how long the decision took.
	EventDenied = "denied"
	// EventRegressionDetected: after a destructive call, the PostToolUse
	// hook found the work regressed against the last iteration (the seeds'
	// post_tool_call -> regression_detected), and told the agent at once.
	EventRegressionDetected = "regression_detected"
)

// ToolCall is one line of tool-calls.jsonl.
type ToolCall struct {
	Timestamp time.Time `json:"timestamp"`
	// Tool is the client's tool name (Write, Edit, Bash, apply_patch, an
	// MCP tool), or "Stop" for a guard event.
	Tool    string `json:"tool"`
	File    string `json:"file,omitempty"`
	Command string `json:"command,omitempty"`
	// Risky and Risk follow persistence-hooks.yaml's risk_patterns
	// (test_file_modification, bulk_deletion, version_control_deletion).
	Risky     bool   `json:"risky"`
	Risk      string `json:"risk,omitempty"`
	SessionID string `json:"session_id,omitempty"`
	// Iteration is the iteration the call was made in: the one being worked
	// on, one past the loop's last recorded iteration.
	Iteration int `json:"iteration"`
	// Event marks a guard event (EventStopBlocked, EventStopReleased).
	Event  string `json:"event,omitempty"`
	Detail string `json:"detail,omitempty"`
	// LatencyMS is a denied call's detection latency: from the hook's start
	// to its decision.
	LatencyMS int `json:"latency_ms,omitempty"`
}

// ToolCallsPath is a loop's tool-call log.
func (s *Store) ToolCallsPath(id string) string { return filepath.Join(s.LoopDir(id), toolCallsName) }

// AppendToolCall appends one record to a loop's tool-call log.
func (s *Store) AppendToolCall(id string, c ToolCall) error {
	if !ValidID(id) {
		return fmt.Errorf("loop %q: %w", id, ErrNotFound)
	}
	if len(c.Command) > maxToolCallText {
		c.Command = c.Command[:maxToolCallText] + "..."
	}
	line, err := json.Marshal(c)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(s.ToolCallsPath(id), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ToolCalls reads a loop's tool-call log; lines that do not parse (a write
// torn by a kill) are skipped. A loop without a log has no calls.
func (s *Store) ToolCalls(id string) ([]ToolCall, error) {
	f, err := os.Open(s.ToolCallsPath(id))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []ToolCall
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var c ToolCall
		if json.Unmarshal(sc.Bytes(), &c) == nil {
			out = append(out, c)
		}
	}
	return out, sc.Err()
}

// ToolCallSummary counts a loop's tool calls: the seeds' tool_call_history
// by tool, and its risky_actions.
type ToolCallSummary struct {
	Total  int            `json:"total"`
	ByTool map[string]int `json:"by_tool"`
	// Risky lists the risky actions in order.
	Risky []ToolCall `json:"risky_actions"`
	// StopBlocks and StopReleases count the Stop hook's events.
	StopBlocks   int        `json:"stop_blocks"`
	StopReleases []ToolCall `json:"stop_releases,omitempty"`
	// Denied counts the calls the PreToolUse hook denied.
	Denied int `json:"denied"`
	// RegressionsDetected are the regressions the PostToolUse hook found
	// after destructive calls.
	RegressionsDetected []ToolCall `json:"regressions_detected,omitempty"`
	// DeniedLatencyMS are their detection latencies.
	DeniedLatencyMS []int `json:"-"`
}

// SummarizeToolCalls counts calls.
func SummarizeToolCalls(calls []ToolCall) ToolCallSummary {
	s := ToolCallSummary{ByTool: map[string]int{}}
	for _, c := range calls {
		switch c.Event {
		case EventStopBlocked:
			s.StopBlocks++
			continue
		case EventStopReleased:
			s.StopReleases = append(s.StopReleases, c)
			continue
		case EventDenied:
			s.Denied++
			s.DeniedLatencyMS = append(s.DeniedLatencyMS, c.LatencyMS)
			continue
		case EventRegressionDetected:
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
func ToolCallHistory(calls []ToolCall) []ToolCall {
	out := []ToolCall{}
	for _, c := range calls {
		if c.Event == "" {
			out = append(out, c)
		}
	}
	return out
}

// writeToolCalls adds the guard's counts to the persistence view, read from
// the loop's work tree; nothing when the guard logged nothing.
func writeToolCalls(b *strings.Builder, st *State) {
	if st.WorkingDirectory == "" {
		return
	}
	calls, err := NewStore(st.WorkingDirectory).ToolCalls(st.LoopID)
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
