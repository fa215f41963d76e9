package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/agent"
)

// TestRealPayloads decodes the hook payloads recorded from codex-cli
// 0.169.0 (internal/agent/fakemodel/testdata/codex/README.md) into the
// neutral calls the guard judges: a shell command, apply_patch's files (a
// heredoc in a shell command included, which Codex applies as a patch), an
// MCP tool's input, stops.
func TestRealPayloads(t *testing.T) {
	type want struct {
		tool    string
		command string
		changes []string
		active  bool
	}
	tests := map[string]want{
		"000-PreToolUse-Bash":                   {tool: "Bash", command: "printf 'guarded\\n' > guarded.txt"},
		"001-PostToolUse-Bash":                  {tool: "Bash", command: "printf 'guarded\\n' > guarded.txt"},
		"002-PreToolUse-apply_patch":            {tool: "apply_patch", changes: []string{"patched.txt"}},
		"003-PostToolUse-apply_patch":           {tool: "apply_patch", changes: []string{"patched.txt"}},
		"004-PreToolUse-Bash":                   {tool: "Bash", command: "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: heredoc.txt\n+via a heredoc\n*** End Patch\nEOF\n", changes: []string{"heredoc.txt"}},
		"005-PreToolUse-mcp__probe__write_note": {tool: "mcp__probe__write_note"},
		"008-Stop":                              {},
		"009-Stop":                              {active: true},
		"subagent-PreToolUse-Bash":              {tool: "Bash", command: "printf 'by the subagent\\n' > sub.txt"},
		"subagent-PreToolUse-spawn_agent":       {tool: "spawn_agent"},
	}
	dir := filepath.Join("..", "fakemodel", "testdata", "codex", "hooks")
	for name, w := range tests {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var event agent.Event
			for _, part := range strings.Split(name, "-") {
				for _, e := range agent.Events {
					if part == string(e) {
						event = e
					}
				}
			}
			var client Client
			if _, err := client.Decode(agent.PostToolUse, data); event == agent.PreToolUse && err == nil {
				t.Error("a PreToolUse payload decoded as a PostToolUse")
			}
			c, err := client.Decode(event, data)
			if err != nil {
				t.Fatal(err)
			}
			got := want{tool: c.Tool, active: c.StopActive}
			if c.Command != nil {
				got.command = *c.Command
			}
			for _, ch := range c.Changes {
				got.changes = append(got.changes, ch.Path)
			}
			if d := cmp.Diff(w, got, cmp.AllowUnexported(want{})); d != "" {
				t.Errorf("call (-want +got):\n%s", d)
			}
			if c.Cwd != "<repo>" || c.SessionID == "" {
				t.Errorf("cwd %q session %q", c.Cwd, c.SessionID)
			}
		})
	}
}

// TestHeredocPatches: the shell forms Codex applies as patches, and the
// ones it runs as plain commands.
func TestHeredocPatches(t *testing.T) {
	patch := "*** Begin Patch\n*** Delete File: calc_test.go\n*** End Patch\n"
	for script, want := range map[string][]string{
		"apply_patch <<'EOF'\n" + patch + "EOF\n":               {"calc_test.go"},
		"applypatch <<EOF\n" + patch + "EOF\n":                  {"calc_test.go"},
		"cd pkg && apply_patch <<'PATCH'\n" + patch + "PATCH\n": {"pkg/calc_test.go"},
		"echo hi; apply_patch <<-'EOF'\n" + patch + "EOF\n":     {"calc_test.go"},
		"cat <<'EOF' > x.patch\n" + patch + "EOF\n":             nil,
		"echo apply_patch": nil,
	} {
		var got []string
		for _, hp := range heredocPatches(script) {
			p, err := ParsePatch(hp.text)
			if err != nil {
				t.Fatalf("%q: %v", script, err)
			}
			for _, f := range p.Files {
				got = append(got, inDir(hp.dir, f.Path))
			}
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%q (-want +got):\n%s", script, d)
		}
	}
}

// TestUnreadablePatchRefused: a patch the guard cannot read is an error of
// the hook input (the client blocks the call), never a call with nothing
// to judge.
func TestUnreadablePatchRefused(t *testing.T) {
	for name, payload := range map[string]string{
		"apply_patch": `{"hook_event_name":"PreToolUse","cwd":"/r","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: a_test.go\n?bogus\n*** End Patch\n"}}`,
		"heredoc":     `{"hook_event_name":"PreToolUse","cwd":"/r","tool_name":"Bash","tool_input":{"command":"apply_patch <<'EOF'\nnot a patch\nEOF\n"}}`,
	} {
		if c, err := (Client{}).Decode(agent.PreToolUse, []byte(payload)); err == nil || !strings.Contains(err.Error(), "judges only patches it can read") {
			t.Errorf("%s: %+v, %v; want an error", name, c, err)
		}
	}
}
