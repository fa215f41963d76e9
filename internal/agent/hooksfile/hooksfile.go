// Package hooksfile reads and writes the JSON hooks document Claude Code
// (settings.json's "hooks") and Codex (hooks.json) both read:
//
//	{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "ralph-gate guard pre-tool-use", "timeout": 30}]}]}}
//
// It merges the guard's entries into a document a user also edits: every
// other key, hook and group is kept in its order, installing twice is
// installing once, and a document that is not the JSON the client reads is
// never overwritten.
package hooksfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ralph-gate/ralph-gate/internal/agent"
	"github.com/ralph-gate/ralph-gate/internal/atomicfile"
)

// Hook is one hook the guard installs.
type Hook struct {
	// Event is the hook event ("PreToolUse").
	Event string
	// Matcher is the group's tool matcher ("" for events without one).
	Matcher string
	// Command is the command the hook runs.
	Command string
	// Timeout is the hook's timeout in seconds (0: the client's default).
	Timeout int
}

// MalformedError is a hooks document that is not the JSON the client
// reads; it is never overwritten.
type MalformedError struct {
	Path string
	Msg  string
}

func (e *MalformedError) Error() string {
	return fmt.Sprintf("%s: %s; it was left unchanged", e.Path, e.Msg)
}

// Ours reports whether a hook command in a document is one of the guard's
// (of any version or binary): it is replaced on install and removed on
// uninstall.
type Ours func(command string) bool

// InstallFile merges hooks into the document at path (created with its
// directory when missing), or with uninstall removes the guard's entries.
// It reports whether the file changed.
func InstallFile(path string, hooks []Hook, ours Ours, uninstall bool) (bool, error) {
	data, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("read %s: %w", path, errors.Unwrap(err))
	}
	if !exists && uninstall {
		return false, nil
	}
	out, changed, err := Merge(data, hooks, ours, uninstall)
	if err != nil {
		return false, &MalformedError{Path: path, Msg: err.Error()}
	}
	if !changed {
		return false, nil
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, fmt.Errorf("create %s: %w", filepath.Dir(path), errors.Unwrap(err))
	}
	return true, atomicfile.Write(path, out, mode)
}

// Merge adds (or with uninstall removes) hooks in a hooks document. Each
// hook ends up once, in a group of its own matcher: an entry of ours that
// runs another command or sits under another matcher is replaced, and a
// group left empty goes. An empty document is an empty object.
func Merge(data []byte, hooks []Hook, ours Ours, uninstall bool) ([]byte, bool, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}")
	}
	top, err := parseObject(data)
	if err != nil {
		return nil, false, err
	}
	all := &object{vals: map[string]json.RawMessage{}}
	if raw, ok := top.vals["hooks"]; ok && string(bytes.TrimSpace(raw)) != "null" {
		if all, err = parseObject(raw); err != nil {
			return nil, false, fmt.Errorf("hooks: %v", err)
		}
	}
	changed := false
	for _, h := range hooks {
		groups, err := eventGroups(all, h.Event)
		if err != nil {
			return nil, false, err
		}
		placed := false
		var kept []json.RawMessage
		for gi, g := range groups {
			group, entries, err := parseGroup(g, h.Event, gi)
			if err != nil {
				return nil, false, err
			}
			var keep []json.RawMessage
			touched := false
			for _, e := range entries {
				cmd, ok := entryCommand(e)
				if !ok || !ours(cmd) {
					keep = append(keep, e)
					continue
				}
				if !uninstall && !placed && cmd == h.Command && groupMatcher(group) == h.Matcher && len(entries) == 1 && timeoutOf(e) == h.Timeout {
					placed = true
					keep = append(keep, e)
					continue
				}
				touched, changed = true, true
			}
			switch {
			case !touched:
				kept = append(kept, g)
			case len(keep) > 0:
				group.set("hooks", marshalArray(keep))
				kept = append(kept, group.marshal())
			}
		}
		if !placed && !uninstall {
			kept = append(kept, newGroup(h))
			changed = true
		}
		switch {
		case len(kept) > 0:
			all.set(h.Event, marshalArray(kept))
		case all.has(h.Event):
			all.del(h.Event)
		}
	}
	if !changed {
		return data, false, nil
	}
	if len(all.keys) == 0 {
		top.del("hooks")
	} else {
		top.set("hooks", all.marshal())
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, top.marshal(), "", "  "); err != nil {
		return nil, false, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), true, nil
}

// Installed reports whether a document runs the guard for every hook: each
// event has a group of the hook's matcher (for "*", also the empty matcher,
// which matches every tool too) with an entry of ours, whatever binary it
// names.
func Installed(data []byte, hooks []Hook, ours Ours) bool {
	if len(bytes.TrimSpace(data)) == 0 {
		return false
	}
	top, err := parseObject(data)
	if err != nil {
		return false
	}
	raw, ok := top.vals["hooks"]
	if !ok {
		return false
	}
	all, err := parseObject(raw)
	if err != nil {
		return false
	}
	for _, h := range hooks {
		groups, err := eventGroups(all, h.Event)
		if err != nil {
			return false
		}
		found := false
		for gi, g := range groups {
			group, entries, err := parseGroup(g, h.Event, gi)
			if err != nil {
				return false
			}
			if m := groupMatcher(group); m != h.Matcher && !(h.Matcher == "*" && m == "") {
				continue
			}
			for _, e := range entries {
				if cmd, ok := entryCommand(e); ok && ours(cmd) {
					found = true
				}
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func eventGroups(all *object, event string) ([]json.RawMessage, error) {
	var groups []json.RawMessage
	if raw, ok := all.vals[event]; ok && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &groups); err != nil {
			return nil, fmt.Errorf("hooks.%s is not an array", event)
		}
	}
	return groups, nil
}

func parseGroup(g json.RawMessage, event string, gi int) (*object, []json.RawMessage, error) {
	group, err := parseObject(g)
	if err != nil {
		return nil, nil, fmt.Errorf("hooks.%s[%d]: %v", event, gi, err)
	}
	var entries []json.RawMessage
	if raw, ok := group.vals["hooks"]; ok {
		if err := json.Unmarshal(raw, &entries); err != nil {
			return nil, nil, fmt.Errorf("hooks.%s[%d].hooks is not an array", event, gi)
		}
	}
	return group, entries, nil
}

func entryCommand(e json.RawMessage) (string, bool) {
	entry, err := parseObject(e)
	if err != nil {
		return "", false // not ours to judge
	}
	var cmd string
	_ = json.Unmarshal(entry.vals["command"], &cmd)
	return cmd, true
}

func timeoutOf(e json.RawMessage) int {
	var v struct {
		Timeout int `json:"timeout"`
	}
	_ = json.Unmarshal(e, &v)
	return v.Timeout
}

func groupMatcher(group *object) string {
	var m string
	_ = json.Unmarshal(group.vals["matcher"], &m)
	return m
}

func newGroup(h Hook) json.RawMessage {
	entry := &object{vals: map[string]json.RawMessage{}}
	entry.set("type", mustJSON("command"))
	entry.set("command", mustJSON(h.Command))
	if h.Timeout > 0 {
		entry.set("timeout", mustJSON(h.Timeout))
	}
	group := &object{vals: map[string]json.RawMessage{}}
	if h.Matcher != "" {
		group.set("matcher", mustJSON(h.Matcher))
	}
	group.set("hooks", marshalArray([]json.RawMessage{entry.marshal()}))
	return group.marshal()
}

// Command is the shell command line a hook runs: bin quoted for a POSIX
// shell, then the arguments.
func Command(bin string, args ...string) string {
	q, err := syntax.Quote(bin, syntax.LangPOSIX)
	if err != nil {
		q = bin
	}
	return strings.Join(append([]string{q}, args...), " ")
}

// GuardCommand reports whether a hook command runs `ralph-gate guard SUB
// [ARGS]` for one of subs: a binary named ralph-gate* or named as bin is,
// quoted or not.
func GuardCommand(cmd, bin string, subs ...string) bool {
	f, err := syntax.NewParser().Parse(strings.NewReader(cmd), "")
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) < 3 {
		return false
	}
	var w []string
	for _, a := range ce.Args {
		w = append(w, unquote(a))
	}
	name := strings.TrimSuffix(filepath.Base(w[0]), ".exe")
	own := strings.HasPrefix(name, "ralph-gate") || name == strings.TrimSuffix(filepath.Base(bin), ".exe")
	if !own || w[1] != "guard" {
		return false
	}
	for _, s := range subs {
		if w[2] == s {
			return true
		}
	}
	return false
}

// unquote is a word's value with its quotes removed (what the shell runs).
func unquote(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				}
			}
		}
	}
	return b.String()
}

// object is a JSON object that keeps its keys' order.
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

func parseObject(data []byte) (*object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, jsonErr(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	o := &object{vals: map[string]json.RawMessage{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, jsonErr(err)
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errors.New("not a JSON object")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, jsonErr(err)
		}
		o.set(key, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, jsonErr(err)
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("more than one JSON value")
	}
	return o, nil
}

func jsonErr(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("not valid JSON (%v at byte %d)", se, se.Offset)
	}
	return fmt.Errorf("not valid JSON (%v)", agent.OneLine(err.Error()))
}

func (o *object) has(k string) bool { _, ok := o.vals[k]; return ok }

func (o *object) set(k string, v json.RawMessage) {
	if !o.has(k) {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) del(k string) {
	if !o.has(k) {
		return
	}
	delete(o.vals, k)
	for i, kk := range o.keys {
		if kk == k {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
}

func (o *object) marshal() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(mustJSON(k))
		b.WriteByte(':')
		b.Write(o.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}

func marshalArray(vs []json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, v := range vs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(v)
	}
	b.WriteByte(']')
	return b.Bytes()
}

func mustJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimRight(b.Bytes(), "\n")
}
