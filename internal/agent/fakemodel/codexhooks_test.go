package fakemodel

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ralph-gate/ralph-gate/internal/agent/codex"
)

var update = flag.Bool("update", false, "rewrite testdata/codex from the real codex's output")

// The test binary answers as a hook when hookEnv names the event, and as
// an MCP server when mcpEnv is set.
const (
	hookEnv    = "FAKEMODEL_HOOK"
	hookLogEnv = "FAKEMODEL_HOOK_LOG"
	mcpEnv     = "FAKEMODEL_MCP"
)

// codexHook is one command hook in Codex's configuration (codex.Hook).
type codexHook = codex.Hook

// hookTrustHash and codexHookArgs are the codex adapter's: the tests here
// prove them against the real codex.
var (
	hookTrustHash = codex.TrustHash
	codexHookArgs = codex.ConfigArgs
	tomlString    = codex.TOMLString
)

// runHook is the test binary as a Codex hook: it records the payload as
// log/NNN.json (NNN counting every hook run), denies a tool call whose input holds DENY-ME, and
// blocks a Stop once (while stop_hook_active is false).
func runHook(event, log string, stdin io.Reader, stdout io.Writer) int {
	in, err := io.ReadAll(io.LimitReader(stdin, 64<<20))
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakemodel hook:", err)
		return 1
	}
	for i := 0; ; i++ {
		f, err := os.OpenFile(filepath.Join(log, fmt.Sprintf("%03d.json", i)), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakemodel hook:", err)
			return 1
		}
		_, _ = f.Write(in)
		_ = f.Close()
		break
	}
	var p struct {
		ToolInput      json.RawMessage `json:"tool_input"`
		StopHookActive bool            `json:"stop_hook_active"`
	}
	_ = json.Unmarshal(in, &p)
	enc := json.NewEncoder(stdout)
	switch {
	case event == "PreToolUse" && bytes.Contains(p.ToolInput, []byte("DENY-ME")):
		_ = enc.Encode(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "fakemodel hook: DENY-ME is not allowed",
		}})
	case event == "Stop" && !p.StopHookActive:
		_ = enc.Encode(map[string]any{"decision": "block", "reason": "fakemodel hook: STOP-BLOCKED, one more turn"})
	}
	return 0
}

// runMCP is the test binary as a stdio MCP server with one tool,
// write_note, which only answers.
func runMCP(stdin io.Reader, stdout io.Writer) int {
	sc := bufio.NewScanner(stdin)
	sc.Buffer(nil, 16<<20)
	enc := json.NewEncoder(stdout)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string          `json:"protocolVersion"`
				Arguments       json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
			continue // a notification
		}
		var result any = map[string]any{}
		switch m.Method {
		case "initialize":
			result = map[string]any{"protocolVersion": m.Params.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "probe", "version": "1"}}
		case "tools/list":
			result = map[string]any{"tools": []any{map[string]any{"name": "write_note", "description": "Write a note file.",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}, "text": map[string]any{"type": "string"}}, "required": []string{"path"}}}}}
		case "tools/call":
			result = map[string]any{"content": []any{map[string]any{"type": "text", "text": "noted " + string(m.Params.Arguments)}}}
		}
		_ = enc.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
	}
	return 0
}

// TestHookTrustHash checks the hash against ones Codex 0.169.0 reported
// for these hooks (hooks/list of its app server).
func TestHookTrustHash(t *testing.T) {
	tests := []struct {
		hook codexHook
		want string
	}{
		{codexHook{Key: "pre_tool_use", Matcher: "Bash", Command: "/x/ralph-gate guard pre-tool-use", Timeout: 600}, "sha256:f9ba6a00f9a599eff6ac526303c5c2c4bbab88c841ecc75d509043e46520ee90"},
		{codexHook{Key: "stop", Command: "HOOKLOG=/tmp/codexexp/e2/hooklog /tmp/codexexp/bin/hooklog.sh Stop", Timeout: 600}, "sha256:0d614bfea91b171716c458583fc3b760b65d08511d66cc6fc3a5d84a1c38b45a"},
	}
	for _, tt := range tests {
		if got := hookTrustHash(tt.hook); got != tt.want {
			t.Errorf("hookTrustHash(%+v) = %s, want %s", tt.hook, got, tt.want)
		}
	}
}

// TestCodexHooksSeeEveryCall installs hooks for one run with -c only
// (trusted with -c hooks.state, no file written, no bypass flag) and
// drives every kind of call through them: a shell command, apply_patch, an
// apply_patch heredoc inside a shell command, an MCP tool found through
// tool_search, a call the PreToolUse hook denies, and a stop the Stop hook
// blocks once. The payloads and the --json output are kept in
// testdata/codex.
func TestCodexHooksSeeEveryCall(t *testing.T) {
	bin := codexBinary(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	log := t.TempDir()
	hookCmd := func(event string) string {
		q, err := syntax.Quote(self, syntax.LangPOSIX)
		if err != nil {
			t.Fatal(err)
		}
		ql, _ := syntax.Quote(log, syntax.LangPOSIX)
		return hookEnv + "=" + event + " " + hookLogEnv + "=" + ql + " " + q
	}
	hooks := []codexHook{
		{Event: "PreToolUse", Key: "pre_tool_use", Command: hookCmd("PreToolUse"), Timeout: 600},
		{Event: "PostToolUse", Key: "post_tool_use", Command: hookCmd("PostToolUse"), Timeout: 600},
		{Event: "Stop", Key: "stop", Command: hookCmd("Stop"), Timeout: 900},
	}
	heredoc := "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: heredoc.txt\n+via a heredoc\n*** End Patch\nEOF\n"
	srv := StartOpenAI(t, []Turn{
		{Calls: []Call{{Name: "exec_command", Input: map[string]any{"cmd": "printf 'guarded\\n' > guarded.txt", "login": false}}}},
		{Calls: []Call{{Name: "apply_patch", Input: "*** Begin Patch\n*** Add File: patched.txt\n+patched\n*** End Patch\n"}}},
		{Calls: []Call{{Name: "exec_command", Input: map[string]any{"cmd": heredoc, "login": false}}}},
		{Calls: []Call{{Name: "tool_search", Input: map[string]any{"query": "write note", "limit": 2}}}},
		{Calls: []Call{{Name: "write_note", Namespace: "mcp__probe", Input: map[string]any{"path": "note.txt", "text": "hello"}}}},
		{Calls: []Call{{Name: "exec_command", Input: map[string]any{"cmd": "echo DENY-ME > denied.txt", "login": false}}}},
		{Text: "First stop.", When: outputHas("Command blocked by PreToolUse hook: fakemodel hook: DENY-ME is not allowed")},
		{Text: "Done.", When: func(r Request) error {
			if !strings.Contains(r.Text(), "<hook_prompt") || !strings.Contains(r.Text(), "STOP-BLOCKED") {
				return errors.New("the Stop hook's reason did not come back as a hook_prompt")
			}
			return nil
		}},
	}, Options{Timeout: 2 * time.Minute, Usage: codexUsage})
	setup := newCodexSetup(t, bin, srv, map[string]string{"README.md": "# demo\n"})
	setup.Args = append(codexHookArgs(hooks),
		"-c", "mcp_servers.probe={command="+tomlString(self)+",env={"+mcpEnv+"=\"1\"},required=true,default_tools_approval_mode=\"approve\"}")
	run := setup.run(t, "Exercise every tool.", 3*time.Minute)
	run.mustSucceed(t)
	srv.Check()

	for path, want := range map[string]string{"guarded.txt": "guarded\n", "patched.txt": "patched\n", "heredoc.txt": "via a heredoc\n"} {
		if got, err := os.ReadFile(filepath.Join(setup.Dir, path)); err != nil || string(got) != want {
			t.Errorf("%s = %q (%v), want %q", path, got, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(setup.Dir, "denied.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the denied command ran: denied.txt exists (%v)", err)
	}

	payloads := readHookLog(t, log)
	var seen []string
	for _, p := range payloads {
		var m struct {
			Event    string `json:"hook_event_name"`
			Tool     string `json:"tool_name"`
			Active   bool   `json:"stop_hook_active"`
			Mode     string `json:"permission_mode"`
			Response any    `json:"tool_response"`
		}
		if err := json.Unmarshal(p.data, &m); err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		s := m.Event
		if m.Tool != "" {
			s += " " + m.Tool
		}
		if m.Event == "Stop" {
			s += fmt.Sprintf(" active=%v", m.Active)
		}
		seen = append(seen, s)
	}
	want := []string{
		"PreToolUse Bash", "PostToolUse Bash",
		"PreToolUse apply_patch", "PostToolUse apply_patch",
		"PreToolUse Bash", // the heredoc: Codex applies it as a patch and runs no PostToolUse
		"PreToolUse mcp__probe__write_note", "PostToolUse mcp__probe__write_note",
		"PreToolUse Bash", // denied
		"Stop active=false", "Stop active=true",
	}
	if d := cmp.Diff(want, seen); d != "" {
		t.Errorf("hooks run (-want +got):\n%s", d)
	}

	norm := newCodexNormalizer(setup, log, self)
	for _, p := range payloads {
		golden(t, filepath.Join("hooks", p.name), norm.json(p.data))
	}
	golden(t, "exec-hooks.jsonl", norm.lines(run.Stdout))
	golden(t, "tools.json", norm.json(mustJSON(srv.Requests()[0].Body["tools"])))
}

type hookPayload struct {
	name string
	data []byte
}

// readHookLog reads the recorded payloads in order, each named
// NNN-EVENT-TOOL.json for the fixtures.
func readHookLog(t *testing.T, dir string) []hookPayload {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []hookPayload
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Event string `json:"hook_event_name"`
			Tool  string `json:"tool_name"`
		}
		_ = json.Unmarshal(data, &m)
		name := strings.TrimSuffix(e.Name(), ".json") + "-" + m.Event
		if m.Tool != "" {
			name += "-" + m.Tool
		}
		out = append(out, hookPayload{name: name + ".json", data: data})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// codexNormalizer takes what changes from run to run out of codex's
// output: directories, ids, times.
type codexNormalizer struct {
	paths *strings.Replacer
}

var (
	uuidRE     = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	rolloutRE  = regexp.MustCompile(`sessions/\d{4}/\d{2}/\d{2}/rollout-[0-9T-]+-<uuid>`)
	wallTimeRE = regexp.MustCompile(`Wall time: [0-9.]+ seconds`)
)

func newCodexNormalizer(setup *codexSetup, log, self string) *codexNormalizer {
	var pairs []string
	for _, p := range [][2]string{{setup.Dir, "<repo>"}, {setup.Home, "<home>"}, {log, "<hooklog>"}, {self, "<test-binary>"}} {
		if p[0] == "" {
			continue
		}
		if real, err := filepath.EvalSymlinks(p[0]); err == nil && real != p[0] {
			pairs = append(pairs, real, p[1])
		}
		pairs = append(pairs, p[0], p[1])
	}
	return &codexNormalizer{paths: strings.NewReplacer(pairs...)}
}

func (n *codexNormalizer) text(s string) string {
	s = n.paths.Replace(s)
	s = uuidRE.ReplaceAllString(s, "<uuid>")
	s = rolloutRE.ReplaceAllString(s, "sessions/<date>/rollout-<time>-<uuid>")
	return wallTimeRE.ReplaceAllString(s, "Wall time: <t> seconds")
}

// json normalizes a JSON document and indents it, keeping its keys'
// order.
func (n *codexNormalizer) json(data []byte) []byte {
	norm := []byte(n.text(string(data)))
	var b bytes.Buffer
	if err := json.Indent(&b, norm, "", "  "); err != nil {
		return norm
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// lines normalizes JSON lines as they are.
func (n *codexNormalizer) lines(s string) []byte {
	return []byte(n.text(strings.TrimSpace(s)) + "\n")
}

func mustJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// golden compares got with testdata/codex/NAME, or writes it there with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "codex", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v (run with -update to record it)", err)
		return
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s (-want +got):\n%s", path, d)
	}
}
