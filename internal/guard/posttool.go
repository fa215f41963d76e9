package guard

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ralph-gate/ralph-gate/internal/agent"
	"github.com/ralph-gate/ralph-gate/internal/atomicfile"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
	"github.com/ralph-gate/ralph-gate/internal/shellwrap"
)

// RiskPattern is one of persistence-hooks.yaml's pre_tool_call risk_patterns:
//
//	risk_patterns:
//	  - {tool: Write, file_pattern: "**/test/**/*", risk: test_file_modification}
//	  - {tool: Bash, command_pattern: "rm -rf*", risk: bulk_deletion}
type RiskPattern struct {
	Tool string
	// FilePatterns are globs over the repository path (** any depth).
	FilePatterns []string
	// Command matches a parsed simple command's words.
	Command func(words []string) bool
	Risk    string
}

// Risks are the seeds' risk patterns. The file patterns apply to every tool
// that writes a file (the seeds name Write; Edit and MultiEdit change test
// files just as well), and a test file by the project's extractors counts
// as a test file wherever it lives.
var Risks = []RiskPattern{
	{Tool: "Write", FilePatterns: []string{"**/test/**/*", "**/*.test.ts", "**/*.test.js", "**/*.test.py"}, Risk: "test_file_modification"},
	{Tool: "Bash", Command: isBulkDeletion, Risk: "bulk_deletion"},
	{Tool: "Bash", Command: isGitRm, Risk: "version_control_deletion"},
}

// isBulkDeletion is "rm -rf*": rm with both -r (or -R, --recursive) and -f
// (or --force), in any order or spelling.
func isBulkDeletion(w []string) bool {
	if len(w) == 0 || cmdName(w[0]) != "rm" {
		return false
	}
	r, f := false, false
	for _, a := range w[1:] {
		switch {
		case a == "--":
			return r && f
		case a == "--recursive":
			r = true
		case a == "--force":
			f = true
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--"):
			r = r || strings.ContainsAny(a, "rR")
			f = f || strings.Contains(a, "f")
		}
	}
	return r && f
}

// isGitRm is "git rm*", after git's global options.
func isGitRm(w []string) bool {
	if len(w) == 0 || cmdName(w[0]) != "git" {
		return false
	}
	for i := 1; i < len(w); i++ {
		if gitGlobalWithValue[w[i]] {
			i++
			continue
		}
		if strings.HasPrefix(w[i], "-") {
			continue
		}
		return w[i] == "rm"
	}
	return false
}

// Classify returns the risk of a tool call ("" for none) and the file or
// command it acted on: for a tool that changes several files, the first
// risky one (else the first).
func (w *Workspace) Classify(c *agent.Call) (risk, file, command string) {
	if c.Command != nil {
		command = *c.Command
		return bashRisk(command), "", command
	}
	for i, ch := range c.Changes {
		r, f := w.classifyFile(ch.Path)
		if ch.MoveTo != "" && r == "" {
			r, f = w.classifyFile(ch.MoveTo)
		}
		if i == 0 || r != "" && risk == "" {
			risk, file = r, f
		}
	}
	return risk, file, ""
}

// classifyFile is the seeds' file risk of one path, and the path as logged
// (relative to the repository when inside it).
func (w *Workspace) classifyFile(path string) (risk, file string) {
	t := w.Resolve(path)
	if !t.Inside() {
		return "", path
	}
	if w.IsTest(t.Rel) {
		return "test_file_modification", t.Rel
	}
	for _, g := range Risks[0].FilePatterns {
		if config.MatchGlob(g, t.Rel) {
			return Risks[0].Risk, t.Rel
		}
	}
	return "", t.Rel
}

// bashRisk matches each simple command of a script against the risk
// patterns; the first that matches wins.
func bashRisk(command string) string {
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil {
		return ""
	}
	risk := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		ce, ok := n.(*syntax.CallExpr)
		if !ok || risk != "" {
			return risk == ""
		}
		var ws []string
		for _, a := range words(ce.Args) {
			ws = append(ws, a.val)
		}
		ws = shellwrap.Unwrap(ws)
		for _, r := range Risks {
			if r.Command != nil && r.Command(ws) {
				risk = r.Risk
				break
			}
		}
		return true
	})
	return risk
}

// Destructive reports whether a finished call may have deleted, moved or
// rewritten tests (the seeds' post_tool_call trigger, "destructive tool
// call completed"): a test file written, moved or deleted by a file tool,
// or any shell command, since a command may write any file in ways no
// reading of it can tell (a script, an interpreter, git).
func (w *Workspace) Destructive(c *agent.Call) bool {
	if c.Command != nil {
		return true
	}
	risk, _, _ := w.Classify(c)
	if risk != "" {
		return true
	}
	for _, ch := range c.Changes {
		if ch.Delete || ch.MoveTo != "" {
			return true
		}
	}
	return false
}

// postCheckName remembers the work tree the last post-call check saw, so
// that calls which change nothing are not checked again.
const postCheckName = "guard-post-check"

// AfterCall is the seeds' post_tool_call for a destructive call: the work
// (committed and uncommitted) is checked statically against the loop's last
// recorded iteration, as record will check it. A regression is recorded
// (regression_detected, in the tool-call log and the hook log) and its
// reason returned, for the agent to hear at once; "" when the work is
// clean.
func AfterCall(ctx context.Context, store *state.Store, st *state.State, ws *Workspace, c *agent.Call, cfg *config.Config, failOn gate.FailOn, now time.Time) (string, error) {
	target, err := workCommit(ctx, ws.Root)
	if err != nil {
		return "", err
	}
	// The work's tree names its content: the same content as at the last
	// check (a command that changed nothing) is not checked again.
	tree, err := gitOutput(ctx, ws.Root, "rev-parse", "--verify", target+"^{tree}")
	if err != nil {
		return "", err
	}
	seen := filepath.Join(store.LoopDir(st.LoopID), postCheckName)
	mark := fmt.Sprintf("%d %s", st.Iteration, strings.TrimSpace(tree))
	if data, err := os.ReadFile(seen); err == nil && string(data) == mark {
		return "", nil
	}
	fs, err := WorkFindings(ctx, ws.Root, target, st, cfg, failOn)
	if err != nil {
		return "", err
	}
	_ = atomicfile.Write(seen, []byte(mark), 0o644)
	if len(fs) == 0 {
		return "", nil
	}
	_, file, command := ws.Classify(c)
	reason := "ralph-gate: " + explain(fmt.Sprintf("After this %s, the work since iteration %d has", c.Tool, st.Iteration), fs)
	_ = store.AppendToolCall(st.LoopID, state.ToolCall{Timestamp: now.UTC(), Tool: c.Tool, File: file, Command: command, SessionID: c.SessionID,
		Iteration: st.Iteration + 1, Event: state.EventRegressionDetected, Detail: cut(agent.OneLine(reason), 500)})
	var types []string
	for _, f := range fs {
		types = append(types, string(f.Type))
	}
	_ = store.AppendLog(st.LoopID, map[string]any{
		"timestamp": now.UTC(), "hook_name": "post_tool_call", "loop_id": st.LoopID, "iteration": st.Iteration + 1,
		"agents_invoked": []string{"ralph-gate guard"}, "regression_detected": true, "tool": c.Tool,
		"outcomes": types,
	})
	return reason, nil
}

// Record appends a PostToolUse call to the active loop's tool-call log.
func Record(store *state.Store, st *state.State, ws *Workspace, c *agent.Call, now time.Time) error {
	risk, file, command := ws.Classify(c)
	return store.AppendToolCall(st.LoopID, state.ToolCall{
		Timestamp: now.UTC(), Tool: c.Tool, File: file, Command: command,
		Risky: risk != "", Risk: risk, SessionID: c.SessionID, Iteration: st.Iteration + 1,
	})
}

// RecordDenied appends a PreToolUse denial to the active loop's tool-call
// log, with the time the decision took.
func RecordDenied(store *state.Store, st *state.State, ws *Workspace, c *agent.Call, reason string, now time.Time, took time.Duration) error {
	_, file, command := ws.Classify(c)
	return store.AppendToolCall(st.LoopID, state.ToolCall{
		Timestamp: now.UTC(), Tool: c.Tool, File: file, Command: command, SessionID: c.SessionID,
		Iteration: st.Iteration + 1, Event: state.EventDenied, Detail: cut(agent.OneLine(reason), 500), LatencyMS: int(took.Milliseconds()),
	})
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "..."
}
