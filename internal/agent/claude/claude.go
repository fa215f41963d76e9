// Package claude is ralph-gate's adapter for Claude Code
// (https://docs.anthropic.com/en/docs/claude-code): its preset, its hook
// payloads and answers, where its hooks go, which of its files decide them,
// and the usage lines of its stream-json output.
package claude

import (
	"os"
	"path/filepath"

	"github.com/ralph-gate/ralph-gate/internal/agent"
	"github.com/ralph-gate/ralph-gate/internal/agent/hooksfile"
)

// Client is Claude Code.
type Client struct{}

var _ agent.Client = Client{}

// Name implements agent.Client.
func (Client) Name() string { return "claude" }

// Title implements agent.Client.
func (Client) Title() string { return "Claude Code" }

// Preset is print mode with stream-json output (its "result" line carries
// the usage and cost). acceptEdits lets it edit files in the project and
// --allowedTools Bash lets it run commands without asking: in print mode
// nobody answers a permission prompt, and every call still passes the
// guard's PreToolUse hook, which runs before Claude Code's own permission
// check. bypassPermissions is not used: Claude Code refuses it as root, and
// it would also let MCP tools and web requests through unasked.
func (Client) Preset() string {
	return "claude -p --output-format stream-json --verbose --permission-mode acceptEdits --allowedTools Bash"
}

// ProjectDir implements agent.Client: Claude Code sets CLAUDE_PROJECT_DIR
// for its hooks.
func (Client) ProjectDir(getenv func(string) string) string { return getenv("CLAUDE_PROJECT_DIR") }

// Runs implements agent.Client: the claude command, or the npm package's
// binary.
func (Client) Runs(program string) bool {
	return program == "claude" || program == "claude-code"
}

// Matcher is the tool matcher of the guard's PreToolUse and PostToolUse
// entries: every tool, MCP tools and subagents' calls included.
const Matcher = "*"

// StopTimeout is the Stop hook's timeout in seconds: it runs the completion
// command, which may take longer than Claude Code's default of 60 seconds.
const StopTimeout = 900

// Hooks implements agent.Client: a run installs into the project's local
// settings (git is told to ignore it; Claude Code reads it for every
// session in the project), guard install into the project's shared
// .claude/settings.json.
func (Client) Hooks(root, home string, getenv func(string) string) agent.HookSetup {
	rel := filepath.Join(".claude", "settings.local.json")
	return agent.HookSetup{
		File: filepath.Join(root, rel), Exclude: filepath.ToSlash(rel),
		Shared: filepath.Join(root, ".claude", "settings.json"),
		Install: func(path string, cmd func(agent.Event) string, uninstall bool) (bool, error) {
			return hooksfile.InstallFile(path, HookSpecs(cmd), ours, uninstall)
		},
		Installed: func(path string) bool {
			data, err := os.ReadFile(path)
			return err == nil && Installed(data)
		},
	}
}

// HookSpecs are the guard's hooks in Claude Code's settings, with the
// command each runs.
func HookSpecs(cmd func(agent.Event) string) []hooksfile.Hook {
	return []hooksfile.Hook{
		{Event: string(agent.PreToolUse), Matcher: Matcher, Command: cmd(agent.PreToolUse)},
		{Event: string(agent.PostToolUse), Matcher: Matcher, Command: cmd(agent.PostToolUse)},
		{Event: string(agent.Stop), Command: cmd(agent.Stop), Timeout: StopTimeout},
	}
}

// ours recognizes the guard's entries of any version or binary.
func ours(cmd string) bool {
	return hooksfile.GuardCommand(cmd, "ralph-gate", "pre-tool-use", "post-tool-use", "stop")
}

// Installed reports whether a settings document runs the guard on every
// tool call and on Stop, whatever binary it names.
func Installed(data []byte) bool {
	return hooksfile.Installed(data, HookSpecs(func(agent.Event) string { return "" }), ours)
}

// Own implements agent.Client: the settings files that can add, remove or
// switch off hooks (disableAllHooks) and grant permissions: the project's
// shared and local settings, the user's (in CLAUDE_CONFIG_DIR or ~/.claude)
// and the machine's managed settings.
func (Client) Own(root, home string, getenv func(string) string) []string {
	var out []string
	if root != "" {
		out = append(out, filepath.Join(root, ".claude", "settings.json"), filepath.Join(root, ".claude", "settings.local.json"))
	}
	dir := getenv("CLAUDE_CONFIG_DIR")
	if dir == "" && home != "" {
		dir = filepath.Join(home, ".claude")
	}
	if dir != "" {
		out = append(out, filepath.Join(dir, "settings.json"), filepath.Join(dir, "settings.local.json"))
	}
	return append(out, "/etc/claude-code/managed-settings.json", "/Library/Application Support/ClaudeCode/managed-settings.json")
}
