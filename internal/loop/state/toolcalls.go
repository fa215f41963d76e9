package state

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// toolCallsName is the guard's log beside state.json: one line per tool call
// an agent made during the loop (persistence-hooks.yaml's post_tool_call ->
// tool_call_history, with pre_tool_call's risk patterns -> risky_actions),
// and the guard's Stop events. It is a log of its own, not journal entries,
// so that a hook never takes the loop's lock.
const toolCallsName = "tool-calls.jsonl"

// MaxToolCallText bounds a command kept in the log.
const MaxToolCallText = 2000

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
	if len(c.Command) > MaxToolCallText {
		c.Command = c.Command[:MaxToolCallText] + "..."
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
