package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Event is a hook event, named as the clients name it.
type Event string

// The hook events the guard handles.
const (
	PreToolUse  Event = "PreToolUse"
	PostToolUse Event = "PostToolUse"
	Stop        Event = "Stop"
)

// Events lists the events in the order hooks are installed.
var Events = []Event{PreToolUse, PostToolUse, Stop}

// MaxPayload bounds a hook's input: a Write of a large generated file is
// the biggest there is.
const MaxPayload = 64 << 20

// Call is one hook call in a neutral form: what the tool would read, change
// or run, whatever the client and the tool's name. A tool may do several
// things (a patch changes many files); a tool the adapter does not know has
// only its Input, which the guard searches for the gate's own paths.
type Call struct {
	Event Event
	// Tool is the tool's name as the client gave it, for messages and logs.
	Tool string
	// Cwd is the directory relative paths start from ("" when the client
	// did not say).
	Cwd       string
	SessionID string
	// Reads are the files a read tool reads.
	Reads []string
	// Searches are the directories (or patterns) a search tool reads
	// below: everything under them is read.
	Searches []string
	// Changes are the files a write tool changes, each with how.
	Changes []FileChange
	// Command is a shell command the tool runs (nil: none).
	Command *string
	// Input is the tool's input as the client sent it.
	Input json.RawMessage
	// Response is a PostToolUse call's tool result as the client sent it.
	Response json.RawMessage
	// StopActive is set on a Stop when the client is already going on
	// because a Stop hook blocked.
	StopActive bool
}

// FileChange is one file a tool changes.
type FileChange struct {
	// Path is the file as the tool names it (absolute, or relative to the
	// call's Cwd).
	Path string
	// MoveTo, when set, is where the file ends up (a patch's move).
	MoveTo string
	// Delete says the tool deletes the file.
	Delete bool
	// Apply returns the file's content after the change from its content
	// now (existed false: the file does not exist). It returns ErrNoChange
	// when the tool would fail by itself and change nothing. Nil for a
	// deletion.
	Apply func(cur []byte, existed bool) ([]byte, error)
}

// ErrNoChange says a tool call would fail by itself (an edit whose text is
// not in the file, a patch whose context does not match): it changes
// nothing, so there is nothing to judge.
var ErrNoChange = errors.New("the tool call would fail and change nothing")

// Answer is the guard's answer to one call. The zero value allows the call
// (or the stop) without a word.
type Answer struct {
	// Deny refuses a PreToolUse call, with the reason the agent is told.
	Deny string
	// Block sends the agent back to work: on a Stop, it may not stop yet;
	// after a tool call, it is told at once what the call broke.
	Block string
	// Warn is shown to the user, not the agent: something the guard could
	// not do as configured (an unreadable config it fell back from).
	Warn string
}

// Empty reports whether the answer says nothing.
func (a Answer) Empty() bool { return a == Answer{} }

// EncodeHookJSON writes an answer in the hook output both Claude Code and
// Codex read (https://docs.anthropic.com/en/docs/claude-code/hooks#hook-output;
// Codex took the same shape):
//
//	{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "..."}}
//	{"decision": "block", "reason": "..."}   (Stop: go on; PostToolUse: the reason goes to the model at once)
//	{"systemMessage": "..."}                 (shown to the user)
//
// An empty answer is no output at all.
func EncodeHookJSON(event Event, a Answer) ([]byte, error) {
	if a.Empty() {
		return nil, nil
	}
	out := map[string]any{}
	if a.Warn != "" {
		out["systemMessage"] = a.Warn
	}
	switch {
	case a.Deny != "" && event == PreToolUse:
		out["hookSpecificOutput"] = map[string]any{"hookEventName": string(event), "permissionDecision": "deny", "permissionDecisionReason": a.Deny}
	case a.Block != "" && (event == Stop || event == PostToolUse):
		out["decision"] = "block"
		out["reason"] = a.Block
	case a.Deny != "" || a.Block != "":
		return nil, fmt.Errorf("no answer of this kind to a %s hook", event)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// OneLine keeps the first line of a message, at most 300 bytes of it: what a
// hook says in one line (an error, a reason in a log).
func OneLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		n := 300
		for n > 0 && s[n]&0xC0 == 0x80 {
			n--
		}
		s = s[:n] + "..."
	}
	return s
}
