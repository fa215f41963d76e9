package guard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Matcher is the tool matcher of the PreToolUse and PostToolUse entries.
const Matcher = "Write|Edit|MultiEdit|Bash"

// StopTimeout is the Stop hook's timeout in seconds: it runs the completion
// command, which may take longer than Claude Code's default of 60 seconds.
const StopTimeout = 900

// hookSpec is one hook the guard installs.
type hookSpec struct {
	event, sub, matcher string
	timeout             int
}

var hookSpecs = []hookSpec{
	{event: string(PreToolUse), sub: "pre-tool-use", matcher: Matcher},
	{event: string(PostToolUse), sub: "post-tool-use", matcher: Matcher},
	{event: string(Stop), sub: "stop", timeout: StopTimeout},
}

// MalformedError is a settings file that is not the JSON Claude Code reads;
// it is never overwritten.
type MalformedError struct {
	Path string
	Msg  string
}

func (e *MalformedError) Error() string {
	return fmt.Sprintf("%s: %s; it was left unchanged", e.Path, e.Msg)
}

// HookCommand is the command settings.json runs for a guard subcommand.
func HookCommand(bin, sub string) string {
	q, err := syntax.Quote(bin, syntax.LangPOSIX)
	if err != nil {
		q = bin
	}
	return q + " guard " + sub
}

// InstallFile merges the guard's hooks into a settings file (created with its
// directory when missing), or with uninstall removes them. It reports whether
// the file changed. Other keys and hooks are kept in their order.
func InstallFile(path, bin string, uninstall bool) (bool, error) {
	data, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("read %s: %w", path, errors.Unwrap(err))
	}
	if !exists && uninstall {
		return false, nil
	}
	out, changed, err := MergeSettings(data, bin, uninstall)
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
	return true, writeFileAtomic(path, out, mode)
}

// MergeSettings adds (or removes) the guard's hooks in a settings.json
// document. Installing twice is installing once: an entry already there is
// kept, one that runs another ralph-gate binary is pointed at bin. An empty
// document is an empty object.
func MergeSettings(data []byte, bin string, uninstall bool) ([]byte, bool, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}")
	}
	top, err := parseObject(data)
	if err != nil {
		return nil, false, err
	}
	hooks := &object{vals: map[string]json.RawMessage{}}
	if raw, ok := top.vals["hooks"]; ok && string(bytes.TrimSpace(raw)) != "null" {
		if hooks, err = parseObject(raw); err != nil {
			return nil, false, fmt.Errorf("hooks: %v", err)
		}
	}
	changed := false
	for _, spec := range hookSpecs {
		var groups []json.RawMessage
		if raw, ok := hooks.vals[spec.event]; ok && string(bytes.TrimSpace(raw)) != "null" {
			if err := json.Unmarshal(raw, &groups); err != nil {
				return nil, false, fmt.Errorf("hooks.%s is not an array", spec.event)
			}
		}
		want := HookCommand(bin, spec.sub)
		found := false
		var kept []json.RawMessage
		for gi, g := range groups {
			group, err := parseObject(g)
			if err != nil {
				return nil, false, fmt.Errorf("hooks.%s[%d]: %v", spec.event, gi, err)
			}
			var entries []json.RawMessage
			if raw, ok := group.vals["hooks"]; ok {
				if err := json.Unmarshal(raw, &entries); err != nil {
					return nil, false, fmt.Errorf("hooks.%s[%d].hooks is not an array", spec.event, gi)
				}
			}
			var keep []json.RawMessage
			touched := false
			for _, e := range entries {
				entry, err := parseObject(e)
				if err != nil {
					keep = append(keep, e) // not ours to judge
					continue
				}
				var cmd string
				_ = json.Unmarshal(entry.vals["command"], &cmd)
				if cmd != want && !isGuardCommand(cmd, spec.sub, bin) {
					keep = append(keep, e)
					continue
				}
				if uninstall || found {
					touched, changed = true, true
					continue
				}
				found = true
				if cmd != want {
					entry.set("command", mustJSON(want))
					e = entry.marshal()
					touched, changed = true, true
				}
				keep = append(keep, e)
			}
			if !touched {
				kept = append(kept, g)
				continue
			}
			if len(keep) == 0 {
				continue // the group held only the guard's entries
			}
			group.set("hooks", marshalArray(keep))
			kept = append(kept, group.marshal())
		}
		if !found && !uninstall {
			entry := &object{vals: map[string]json.RawMessage{}}
			entry.set("type", mustJSON("command"))
			entry.set("command", mustJSON(want))
			if spec.timeout > 0 {
				entry.set("timeout", mustJSON(spec.timeout))
			}
			group := &object{vals: map[string]json.RawMessage{}}
			if spec.matcher != "" {
				group.set("matcher", mustJSON(spec.matcher))
			}
			group.set("hooks", marshalArray([]json.RawMessage{entry.marshal()}))
			kept = append(kept, group.marshal())
			changed = true
		}
		switch {
		case len(kept) > 0:
			hooks.set(spec.event, marshalArray(kept))
		case hooks.has(spec.event) && uninstall:
			hooks.del(spec.event)
		}
	}
	if !changed {
		return data, false, nil
	}
	if len(hooks.keys) == 0 {
		top.del("hooks")
	} else {
		top.set("hooks", hooks.marshal())
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, top.marshal(), "", "  "); err != nil {
		return nil, false, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), true, nil
}

// isGuardCommand reports whether a hook command runs ralph-gate guard sub:
// any binary named ralph-gate, or named as bin is, quoted or not.
func isGuardCommand(cmd, sub, bin string) bool {
	f, err := syntax.NewParser().Parse(strings.NewReader(cmd), "")
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok {
		return false
	}
	w := words(ce.Args)
	n := len(w)
	if n < 3 {
		return false
	}
	name := strings.TrimSuffix(cmdName(w[n-3].val), ".exe")
	own := strings.HasPrefix(name, "ralph-gate") || name == strings.TrimSuffix(cmdName(bin), ".exe")
	return own && w[n-2].val == "guard" && w[n-1].val == sub
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
	return fmt.Errorf("not valid JSON (%v)", oneLine(err.Error()))
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
