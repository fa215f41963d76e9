package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ralph-gate/ralph-gate/internal/agent"
)

// Payload is the hook input Claude Code writes on the hook's standard input
// (https://docs.anthropic.com/en/docs/claude-code/hooks#hook-input), holding
// only the fields the guard uses:
//
//	{"session_id": "abc123", "transcript_path": "/home/u/.claude/projects/p/abc123.jsonl",
//	 "cwd": "/home/u/p", "hook_event_name": "PreToolUse",
//	 "tool_name": "Edit", "tool_input": {"file_path": "/home/u/p/a.go", "old_string": "x", "new_string": "y"}}
//
// A Stop event carries stop_hook_active instead of the tool fields.
type Payload struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response"`
	ToolUseID      string          `json:"tool_use_id"`
	// StopHookActive is set when Claude Code is already continuing because a
	// Stop hook blocked: the guard then limits how often it blocks again.
	StopHookActive bool `json:"stop_hook_active"`
}

// WriteInput is the Write tool's input: the whole new content of a file.
type WriteInput struct {
	FilePath string  `json:"file_path"`
	Content  *string `json:"content"`
}

// EditInput is the Edit tool's input: one replacement in a file.
type EditInput struct {
	FilePath   string  `json:"file_path"`
	OldString  *string `json:"old_string"`
	NewString  *string `json:"new_string"`
	ReplaceAll bool    `json:"replace_all"`
}

// MultiEditInput is the MultiEdit tool's input (older versions):
// replacements applied in order, all or none.
type MultiEditInput struct {
	FilePath string      `json:"file_path"`
	Edits    []EditInput `json:"edits"`
}

// NotebookEditInput is the NotebookEdit tool's input: one cell of a Jupyter
// notebook replaced, inserted or deleted.
//
//	{"notebook_path": "/p/n.ipynb", "cell_id": "a1", "new_source": "print(1)", "cell_type": "code", "edit_mode": "replace"}
type NotebookEditInput struct {
	NotebookPath string  `json:"notebook_path"`
	CellID       string  `json:"cell_id"`
	NewSource    *string `json:"new_source"`
	CellType     string  `json:"cell_type"`
	EditMode     string  `json:"edit_mode"`
}

// ReadInput is the input of the tools that read: Read's file_path,
// NotebookRead's notebook_path, Grep's and Glob's path and pattern, LS's
// path.
type ReadInput struct {
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
	Path         string `json:"path"`
	Pattern      string `json:"pattern"`
	Glob         string `json:"glob"`
}

// BashInput is the Bash tool's input.
type BashInput struct {
	Command *string `json:"command"`
}

// DecodePayload reads one hook input for event. Input that is not a JSON
// object, names another event, or lacks a field the event needs is an error
// of one line: Claude Code shows it and blocks the call (exit 2).
func DecodePayload(data []byte, event agent.Event) (*Payload, error) {
	if len(data) > agent.MaxPayload {
		return nil, fmt.Errorf("hook input is larger than %d MiB", agent.MaxPayload>>20)
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, errors.New("hook input is empty: want Claude Code's hook JSON on standard input")
	}
	if trimmed[0] != '{' {
		return nil, errors.New("hook input is not a JSON object")
	}
	var p Payload
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("hook input: %s", agent.OneLine(err.Error()))
	}
	if dec.More() {
		return nil, errors.New("hook input: more than one JSON value")
	}
	if p.HookEventName != "" && p.HookEventName != string(event) {
		return nil, fmt.Errorf("hook input is a %q event, not %s (check the hook's command in settings.json)", agent.OneLine(p.HookEventName), event)
	}
	if event == agent.PreToolUse || event == agent.PostToolUse {
		if p.ToolName == "" {
			return nil, fmt.Errorf("hook input for %s has no tool_name", event)
		}
		if _, err := p.Input(); err != nil {
			return nil, err
		}
	}
	return &p, nil
}

// Input decodes tool_input for the tools the guard judges: a *WriteInput,
// *EditInput, *MultiEditInput, *NotebookEditInput, *BashInput or
// *ReadInput; nil for any other tool.
func (p *Payload) Input() (any, error) {
	var v any
	switch p.ToolName {
	case "Write":
		v = &WriteInput{}
	case "Edit":
		v = &EditInput{}
	case "MultiEdit":
		v = &MultiEditInput{}
	case "NotebookEdit":
		v = &NotebookEditInput{}
	case "Bash":
		v = &BashInput{}
	case "Read", "NotebookRead", "Grep", "Glob", "LS":
		v = &ReadInput{}
	default:
		return nil, nil
	}
	raw := bytes.TrimSpace(p.ToolInput)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, fmt.Errorf("hook input: tool_input of %s is not a JSON object", p.ToolName)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, fmt.Errorf("hook input: tool_input of %s: %s", p.ToolName, agent.OneLine(err.Error()))
	}
	missing := func(field string) error {
		return fmt.Errorf("hook input: tool_input of %s has no %s", p.ToolName, field)
	}
	switch in := v.(type) {
	case *WriteInput:
		if in.FilePath == "" {
			return nil, missing("file_path")
		}
		if in.Content == nil {
			return nil, missing("content")
		}
	case *EditInput:
		if in.FilePath == "" {
			return nil, missing("file_path")
		}
		if in.OldString == nil || in.NewString == nil {
			return nil, missing("old_string and new_string")
		}
	case *MultiEditInput:
		if in.FilePath == "" {
			return nil, missing("file_path")
		}
		if len(in.Edits) == 0 {
			return nil, missing("edits")
		}
		for i, e := range in.Edits {
			if e.OldString == nil || e.NewString == nil {
				return nil, fmt.Errorf("hook input: tool_input of MultiEdit: edits[%d] has no old_string or new_string", i)
			}
		}
	case *NotebookEditInput:
		if in.NotebookPath == "" {
			return nil, missing("notebook_path")
		}
	case *BashInput:
		if in.Command == nil {
			return nil, missing("command")
		}
	}
	return v, nil
}
