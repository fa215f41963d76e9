//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/agent/fakemodel"
)

// The real agent clients, driven by scripted model APIs on 127.0.0.1
// (internal/agent/fakemodel): .ci/run installs them at pinned versions and
// names them in RALPH_GATE_CLAUDE and RALPH_GATE_CODEX.

const (
	claudeVersion = "2.1.332"
	codexVersion  = "0.169.0"
)

// realClient returns the path of a pinned client named in env (skipping, or
// failing where .ci/run set require, when it is missing), after checking
// its version.
func realClient(t *testing.T, env, require, version, install string) string {
	t.Helper()
	path := os.Getenv(env)
	if path == "" {
		missingTool(t, require, fmt.Sprintf("%s is not set: the real client is not installed (%s; .ci/run does it)", env, install))
	}
	out, err := exec.Command(path, "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), version) {
		t.Fatalf("%s --version: %v: %s; want %s (%s)", path, err, out, version, install)
	}
	return path
}

func claudeBinary(t *testing.T) string {
	t.Helper()
	return realClient(t, "RALPH_GATE_CLAUDE", "RALPH_GATE_REQUIRE_CLAUDE", claudeVersion,
		"npm install --prefix DIR @anthropic-ai/claude-code@"+claudeVersion)
}

// clientHome is a user's home for a client run: a config directory that
// holds the seal key, the client's own files, and an environment that points
// the client and its tools there, keeps Go's caches where they are, and
// carries nothing of the machine's agent configuration.
type clientHome struct {
	dir, config string
	env         []string
}

// keyPath is the loop's seal key.
func (h *clientHome) keyPath() string { return filepath.Join(h.config, "loop-seal.key") }

func newClientHome(t *testing.T, clientBin string) *clientHome {
	t.Helper()
	h := &clientHome{dir: t.TempDir()}
	h.config = filepath.Join(h.dir, "config", "ralph-gate")
	goenv := map[string]string{}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatal(err)
		}
		goenv[k] = strings.TrimSpace(string(out))
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME" || k == "XDG_CONFIG_HOME" || k == "RALPH_GATE_CONFIG_DIR" || k == "PATH" || k == "CODEX_HOME",
			strings.HasPrefix(k, "ANTHROPIC_"), strings.HasPrefix(k, "CLAUDE"), strings.HasPrefix(k, "OPENAI_"), strings.HasPrefix(k, "GIT_"):
			continue
		}
		h.env = append(h.env, kv)
	}
	h.env = append(h.env, "HOME="+h.dir, "RALPH_GATE_CONFIG_DIR="+h.config, "NO_COLOR=1", "GOTOOLCHAIN=local",
		"GOCACHE="+goenv["GOCACHE"], "GOMODCACHE="+goenv["GOMODCACHE"], "GOPATH="+goenv["GOPATH"],
		"PATH="+filepath.Dir(clientBin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	return h
}

// claudeEnv points Claude Code at a fake Messages API with everything
// non-essential switched off.
func (h *clientHome) claudeEnv(s *fakemodel.Server) []string {
	return append(append([]string(nil), h.env...),
		"ANTHROPIC_BASE_URL="+s.URL, "ANTHROPIC_API_KEY=sk-ralph-gate-test",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1", "DISABLE_BUG_COMMAND=1", "CLAUDE_CODE_MAX_RETRIES=0")
}

// anthropicLastResult is the last tool result a Messages request carries:
// its text and whether it is an error.
func anthropicLastResult(r fakemodel.Request) (string, bool) {
	msgs, _ := r.Body["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		m, _ := msgs[i].(map[string]any)
		blocks, _ := m["content"].([]any)
		for j := len(blocks) - 1; j >= 0; j-- {
			b, _ := blocks[j].(map[string]any)
			if b["type"] != "tool_result" {
				continue
			}
			isErr, _ := b["is_error"].(bool)
			switch c := b["content"].(type) {
			case string:
				return c, isErr
			case []any:
				var sb strings.Builder
				for _, e := range c {
					if eb, ok := e.(map[string]any); ok {
						if s, ok := eb["text"].(string); ok {
							sb.WriteString(s)
						}
					}
				}
				return sb.String(), isErr
			}
			return "", isErr
		}
	}
	return "", false
}

// deniedBefore is a turn condition: the previous tool call was denied by
// the guard with a reason that says want.
func deniedBefore(last func(fakemodel.Request) (string, bool), want string) func(fakemodel.Request) error {
	return func(r fakemodel.Request) error {
		text, isErr := last(r)
		if !isErr || !strings.Contains(text, "ralph-gate") || !strings.Contains(text, want) {
			return fmt.Errorf("the previous call was not denied by the guard saying %q: error %v, %q", want, isErr, cut(text, 400))
		}
		return nil
	}
}

// allowedBefore is a turn condition: the previous tool call ran.
func allowedBefore(last func(fakemodel.Request) (string, bool), want string) func(fakemodel.Request) error {
	return func(r fakemodel.Request) error {
		text, isErr := last(r)
		if isErr || !strings.Contains(text, want) {
			return fmt.Errorf("the previous call did not run and say %q: error %v, %q", want, isErr, cut(text, 400))
		}
		return nil
	}
}

// toldNow is a turn condition: what the request adds to the conversation
// (its last two messages or input items: the last tool call's result, a
// hook's reason) says want.
func toldNow(want string) func(fakemodel.Request) error {
	return func(r fakemodel.Request) error {
		items, _ := r.Body["messages"].([]any)
		if items == nil {
			items, _ = r.Body["input"].([]any)
		}
		tail, _ := json.Marshal(items[max(0, len(items)-2):])
		if !strings.Contains(string(tail), want) && !strings.Contains(string(tail), strings.ReplaceAll(want, "`", "\\u0060")) {
			return fmt.Errorf("the newest messages do not tell the model %q: %s", want, cut(string(tail), 600))
		}
		return nil
	}
}

// toldBefore is a turn condition: the request carries want (a Stop hook's
// reason, say) somewhere in what the model is told.
func toldBefore(want string) func(fakemodel.Request) error {
	return func(r fakemodel.Request) error {
		if !strings.Contains(r.Text(), want) {
			return fmt.Errorf("the request does not tell the model %q", want)
		}
		return nil
	}
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// statusJSON is `ralph-gate status --format json` of the only loop.
func statusJSON(t *testing.T, dir string, env []string) map[string]any {
	t.Helper()
	res := runGateEnv(t, dir, "", env, "status", "--format", "json")
	if res.code != 0 {
		t.Fatalf("status: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
		t.Fatalf("status JSON: %v\n%s", err, res.stdout)
	}
	return out
}

// mcpConfig is a project's .mcp.json that runs the test binary as the MCP
// server "files".
func mcpConfig(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"files": map[string]any{
		"type": "stdio", "command": self, "args": []string{}, "env": map[string]string{mcpServerEnv: "1"},
	}}})
	return string(data)
}
