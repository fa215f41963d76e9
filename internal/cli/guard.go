package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/agent"
	"github.com/ralph-gate/ralph-gate/internal/agent/clients"
	"github.com/ralph-gate/ralph-gate/internal/agent/hooksfile"
	"github.com/ralph-gate/ralph-gate/internal/atomicfile"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/guard"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
	"github.com/ralph-gate/ralph-gate/internal/terminal"
)

func init() { register("guard", guardHelp, runGuard) }

const guardHelp = `Usage:
  ralph-gate guard pre-tool-use | post-tool-use | stop [--agent A]   (hook JSON on stdin)
  ralph-gate guard install [--agent A] [--settings FILE] [--uninstall]

Hooks that guard every tool call of a coding agent (Claude Code, Codex; see
docs/guard.md). Each hook reads the client's hook JSON on standard input
(--agent names the client, default claude) and answers in the client's own
output format.

pre-tool-use judges every tool call before it runs, whatever the tool: the
files it reads, the files it writes and how (Write, Edit, NotebookEdit,
Codex's apply_patch, each file it adds, updates, moves or deletes), the shell
command it runs, and, for a tool no adapter knows (an MCP tool, say), every
path its input names. A file change is analyzed statically as the change from
the file now to the file the call would leave; a finding at the fail-on
severity (fail_on in .ralph-gate.yml at HEAD, default high) denies the call,
with the finding and what to do instead. The seal key and the gate's config
directory, and the loop's state (.aiwg/ralph), cannot be read or written by
any tool; the gate's configuration (.ralph-gate.yml, aiwg.yml, .git) and the
clients' hooks and settings files (.claude/settings*.json, .codex/, the user's
and the machine's) cannot be written. A shell command is parsed (through sh
-c, eval, pipes, xargs, find -exec, env and other wrappers) and denied when it
deletes or moves test files out of the test paths, skips git hooks
(--no-verify, core.hooksPath, RALPH_GATE_SKIP), force-pushes, rewrites the
loop's ralph/* tags, resets to before the loop's baseline, or runs a human's
ralph-gate command (approve, reject, abort, repair, pause, resume).

post-tool-use appends the call (tool, file or command, risky or not by the
seeds' risk patterns) to the running loop's tool-call log; 'ralph-gate status'
shows them (tool_call_history, risky_actions). After a destructive call (a
test file written or removed, rm -rf, a git command that rewrites files) it
checks the work against the last iteration at once, and on a regression tells
the agent and records regression_detected. Without a running loop it does
nothing.

stop, in a running loop, blocks the agent from stopping while the committed
and uncommitted work since the last recorded iteration has a finding at the
fail-on severity or fails the completion command (run in a clean temporary
worktree). Every block counts: after guard.max_stop_blocks blocks in a row
(default 3) in one session it lets the agent stop and records an event for a
human. Without a running loop it always allows the stop.

A .ralph-gate.yml at HEAD that cannot be read never switches the guard off
and never blocks honest work: the guard uses the running loop's settings (its
baseline's configuration), else the defaults, and warns the user once per
session.

install merges the hooks into FILE (default: the client's own, the
repository's .claude/settings.json, or Codex's $CODEX_HOME/hooks.json, which
Codex runs once the user trusted them), keeping every other key and hook;
installing twice is installing once. --uninstall removes only the guard's
entries. 'ralph-gate run' installs them by itself for its runs (Codex's on
its command line, trusted for the run).

Exit codes: 0 (a decision, or none, was given), 2 malformed hook input or
settings file (the client then blocks the call; a stop is let through), 3
internal error.

Examples:
  ralph-gate guard install
  ralph-gate guard install --agent codex
  echo '{"cwd":"'$PWD'","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push -f"}}' | ralph-gate guard pre-tool-use
`

func runGuard(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 {
		showHelp(env.Stderr, "guard", env)
		return usagef("guard: want a subcommand: pre-tool-use, post-tool-use, stop or install")
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "-h", "--help", "-help", "help":
		showHelp(env.Stdout, "guard", env)
		return nil
	case "install":
		return runGuardInstall(rest, env)
	case "pre-tool-use", "post-tool-use", "stop":
	default:
		return usagef("guard: unknown subcommand %q: want pre-tool-use, post-tool-use, stop or install", sub)
	}
	fs := newFlagSet("guard "+sub, env)
	name := fs.String("agent", clients.Default.Name(), "the agent client `A` whose hook JSON comes on standard input: "+strings.Join(clients.Names(), " or "))
	pos, err := parseInterspersed(fs, rest)
	if err != nil {
		return flagError("guard", err, env)
	}
	if len(pos) > 0 {
		return usagef("guard %s: unexpected argument %q: the hook input comes on standard input", sub, pos[0])
	}
	client, err := clients.Lookup(*name)
	if err != nil {
		return usagef("guard %s: --agent: %v", sub, err)
	}
	event := map[string]agent.Event{"pre-tool-use": agent.PreToolUse, "post-tool-use": agent.PostToolUse, "stop": agent.Stop}[sub]
	if env.Stdin == nil || terminal.Is(env.Stdin) {
		return usagef("guard %s: reads %s's hook JSON on standard input; run it from a hook (ralph-gate guard install)", sub, client.Title())
	}
	data, err := io.ReadAll(io.LimitReader(env.Stdin, agent.MaxPayload+1))
	if err != nil {
		return inputErr(fmt.Errorf("read hook input: %w", err))
	}
	call, err := client.Decode(event, data)
	if err != nil {
		if event == agent.Stop {
			// A hook never traps the session: a stop that cannot be read
			// is let through (record measures the work anyway).
			fmt.Fprintf(env.Stderr, "ralph-gate: guard stop: %v; the agent may stop\n", err)
			return nil
		}
		return inputErr(err)
	}
	h, err := openGuardWorkspace(client, call, env)
	if err != nil {
		if event == agent.Stop {
			fmt.Fprintf(env.Stderr, "ralph-gate: guard stop: %v; the agent may stop\n", err)
			return nil
		}
		return err
	}
	defer h.close()
	var ans agent.Answer
	switch event {
	case agent.PreToolUse:
		ans, err = judgeClosed(h, call)
	case agent.PostToolUse:
		ans, err = guardPostToolUse(ctx, h, call)
	default:
		ans, err = guardStop(ctx, h, call)
	}
	if err != nil {
		return err
	}
	ans.Warn = h.warnOnce(call.SessionID)
	out, err := client.Encode(event, ans)
	if err != nil {
		return err
	}
	_, err = env.Stdout.Write(out)
	return err
}

// guardWorkspace is the repository a hook call happens in.
type guardWorkspace struct {
	ws    *guard.Workspace
	repo  *gitrepo.Repo // nil outside a repository
	store *state.Store
	// loop is the running loop (nil: none), loaded on first use: a Read
	// needs none of it.
	loop       *state.Snapshot
	loopLoaded bool
	// warning is what the user should know about the configuration the
	// guard fell back from ("" for nothing).
	warning string
}

func (h *guardWorkspace) close() {
	if h.repo != nil {
		h.repo.Close()
	}
}

// openGuardWorkspace finds the repository the hook runs for: where the
// client says its project is, else the hook's own working directory (the
// clients run hooks in the project), else the call's cwd, which follows a
// command's working directory anywhere (relative paths start there). The
// configuration comes from HEAD's tree: the working tree is the agent's. A
// configuration that cannot be read never switches the guard off and never
// blocks honest work: the guard falls back to the running loop's (its
// baseline's, which record applies) or to the defaults, and warns the user.
func openGuardWorkspace(client agent.Client, c *agent.Call, env Env) (*guardWorkspace, error) {
	abs := func(p string) string {
		if p == "" {
			return ""
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(orDefault(env.Dir, "."), p)
		}
		if a, err := filepath.Abs(p); err == nil {
			return a
		}
		return p
	}
	cwd := abs(c.Cwd)
	if cwd == "" {
		cwd = abs(orDefault(env.Dir, "."))
	}
	home := env.Getenv("HOME")
	protect := func(ws *guard.Workspace, root string) {
		if dir, err := sealDir(env); err == nil {
			ws.SetPrivate(dir)
		}
		var files []string
		for _, cl := range clients.All {
			files = append(files, cl.Own(root, home, env.Getenv)...)
		}
		ws.SetClientFiles(files, home)
		ws.Getenv = env.Getenv
	}
	var repo *gitrepo.Repo
	for _, dir := range []string{abs(client.ProjectDir(env.Getenv)), abs(orDefault(env.Dir, ".")), cwd} {
		if dir == "" {
			continue
		}
		r, err := gitrepo.Open(dir)
		if errors.Is(err, gitrepo.ErrUnsupported) {
			// A repository ralph-gate cannot read (SHA-256 object names) is
			// the gate's all the same: its .git, configuration and loop
			// state stay out of reach, under the default rules.
			if root, gitDir, derr := gitrepo.Discover(dir); derr == nil && root != "" {
				ws := guard.NewWorkspace(root, gitDir, cwd, nil)
				protect(ws, root)
				return &guardWorkspace{ws: ws}, nil
			}
		}
		if err == nil {
			if r.Root() != "" {
				repo = r
				break
			}
			r.Close()
		}
	}
	if repo == nil {
		// Outside a repository nothing is the gate's but the seal key and
		// the clients' settings: only the rules that need no repository
		// apply.
		ws := guard.NewWorkspace("", "", cwd, nil)
		protect(ws, "")
		return &guardWorkspace{ws: ws}, nil
	}
	store, err := sealedStore(env, repo.Root())
	if err != nil {
		repo.Close()
		return nil, err
	}
	h := &guardWorkspace{repo: repo, store: store}
	cfg := config.Default()
	// A call that only reads is judged by paths alone (the gate's files,
	// the seal key): the configuration is read for the rest.
	needConfig := c.Event != agent.PreToolUse || len(c.Changes) > 0 || c.Command != nil ||
		len(c.Reads) == 0 && len(c.Searches) == 0
	if head, err := repo.Resolve("HEAD"); err == nil && needConfig {
		c, err := config.AtCommit(repo, head, "HEAD")
		switch {
		case err == nil:
			cfg = c
		default:
			cfg, h.warning = h.fallbackConfig(err)
		}
	}
	ws := guard.NewWorkspace(repo.Root(), repo.GitDir(), cwd, cfg)
	protect(ws, repo.Root())
	h.ws = ws
	return h, nil
}

// fallbackConfig is the configuration the guard uses when HEAD's cannot be
// read: the running loop's baseline's, else the defaults; and the warning
// that says so.
func (h *guardWorkspace) fallbackConfig(cause error) (*config.Config, string) {
	msg := oneLineErr(cause)
	if snap := h.activeLoop(); snap != nil {
		if base, err := h.repo.Resolve(snap.State.RalphGate.BaselineCommit); err == nil {
			if c, err := config.AtCommit(h.repo, base, "the loop's baseline"); err == nil {
				return c, fmt.Sprintf("ralph-gate guard: %s; the guard uses the loop's settings (its baseline's configuration) until it is fixed", msg)
			}
		}
	}
	return config.Default(), fmt.Sprintf("ralph-gate guard: %s; the guard uses its default settings until it is fixed", msg)
}

// activeLoop is the work tree's running loop, nil for none.
func (h *guardWorkspace) activeLoop() *state.Snapshot {
	if !h.loopLoaded && h.store != nil {
		h.loopLoaded = true
		if snap, err := guard.ActiveLoop(h.store); err == nil {
			h.loop = snap
		}
	}
	return h.loop
}

// warnOnce returns the workspace's warning the first time a session meets
// it, then "": one warning per session and cause, not one per tool call.
func (h *guardWorkspace) warnOnce(session string) string {
	if h.warning == "" || h.repo == nil {
		return ""
	}
	dir := filepath.Join(state.CommonGitDir(h.repo.GitDir()), "ralph-gate")
	path := filepath.Join(dir, "guard-warned")
	key := session + "\t" + h.warning
	if data, err := os.ReadFile(path); err == nil && string(data) == key {
		return ""
	}
	if err := os.MkdirAll(dir, 0o755); err == nil {
		_ = atomicfile.Write(path, []byte(key), 0o644)
	}
	return h.warning
}

func oneLineErr(err error) string {
	s := err.Error()
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	return s
}

func failOnOf(cfg *config.Config) gate.FailOn { return gate.ResolveFailOn(nil, cfg.FailOn) }

// hookStart is when this process started: a hook's detection latency runs
// from the moment the client handed it the call.
var hookStart = time.Now()

// judgeClosed is the PreToolUse decision, failing closed: the clients run a
// call whose hook exits with anything but a denial or exit 2 (Claude Code
// and Codex both treat other exit codes as "go ahead"), so a call the guard
// could not judge (a file it could not read, a panic) is denied, saying
// why.
func judgeClosed(h *guardWorkspace, c *agent.Call) (ans agent.Answer, err error) {
	defer func() {
		if r := recover(); r != nil {
			ans, err = agent.Answer{Deny: fmt.Sprintf("ralph-gate: the guard could not judge this %s call (internal error: %v); it is refused. Try a simpler call, or stop and say so.", c.Tool, r)}, nil
		}
	}()
	ans, err = guardPreToolUse(h, c)
	if err != nil {
		return agent.Answer{Deny: fmt.Sprintf("ralph-gate: the guard could not judge this %s call (%s); it is refused. Try a simpler call, or stop and say so.", c.Tool, oneLineErr(err))}, nil
	}
	return ans, nil
}

func guardPreToolUse(h *guardWorkspace, c *agent.Call) (agent.Answer, error) {
	g := &guard.Guard{WS: h.ws, FailOn: failOnOf(h.ws.Config)}
	if h.repo != nil {
		g.Loop = guard.NewLoopHistory(h.repo, h.store)
	}
	d, err := g.PreToolUse(c)
	if err != nil {
		return agent.Answer{}, inputErr(err)
	}
	if !d.Deny {
		return agent.Answer{}, nil
	}
	if snap := h.activeLoop(); snap != nil {
		// A denial is a detection: logged with its latency for the loop's
		// persistence_metrics (best effort: the answer matters more).
		_ = guard.RecordDenied(h.store, snap.State, h.ws, c, d.Reason, time.Now(), time.Since(hookStart))
	}
	return agent.Answer{Deny: d.Reason}, nil
}

func guardPostToolUse(ctx context.Context, h *guardWorkspace, c *agent.Call) (agent.Answer, error) {
	snap := h.activeLoop()
	if snap == nil {
		return agent.Answer{}, nil
	}
	if err := guard.Record(h.store, snap.State, h.ws, c, time.Now()); err != nil {
		return agent.Answer{}, err
	}
	if !h.ws.Destructive(c) {
		return agent.Answer{}, nil
	}
	// The seeds' post_tool_call: a destructive call is followed at once by
	// a check of the work against the last iteration, with the loop's rules.
	cfg := h.loopConfig()
	reason, err := guard.AfterCall(ctx, h.store, snap.State, h.ws, c, cfg, failOnOf(cfg), time.Now())
	if err != nil {
		// Checking is best effort here: record and Stop check the work
		// again, and a tool call never fails for it.
		return agent.Answer{}, nil
	}
	return agent.Answer{Block: reason}, nil
}

// loopConfig is the configuration the running loop's checks apply: its
// baseline's (what record applies), else the workspace's.
func (h *guardWorkspace) loopConfig() *config.Config {
	if snap := h.activeLoop(); snap != nil {
		if base, err := h.repo.Resolve(snap.State.RalphGate.BaselineCommit); err == nil {
			if c, err := config.AtCommit(h.repo, base, "the loop's baseline"); err == nil {
				return c
			}
		}
	}
	return h.ws.Config
}

func guardStop(ctx context.Context, h *guardWorkspace, c *agent.Call) (agent.Answer, error) {
	snap := h.activeLoop()
	if snap == nil {
		return agent.Answer{}, nil // no loop: the agent may always stop
	}
	if len(snap.State.PendingGates()) > 0 {
		// A human decides on a blocked iteration first: the agent may stop
		// and wait.
		return agent.Answer{}, nil
	}
	// The loop's rules are the ones record applies: the configuration at its
	// baseline.
	cfg := h.loopConfig()
	check := &guard.StopCheck{Root: h.ws.Root, Store: h.store, Snap: snap, Config: cfg, FailOn: failOnOf(cfg),
		Active: c.StopActive, Session: c.SessionID, Now: time.Now()}
	reason, err := check.Decide(ctx)
	if err != nil {
		return agent.Answer{}, err
	}
	return agent.Answer{Block: reason}, nil
}

func runGuardInstall(args []string, env Env) error {
	fs := newFlagSet("guard install", env)
	name := fs.String("agent", clients.Default.Name(), "the agent client `A` to install for: "+strings.Join(clients.Names(), " or "))
	settings := fs.String("settings", "", "the hooks `FILE` to install into (default: the client's own, .claude/settings.json of the repository or Codex's ~/.codex/hooks.json)")
	uninstall := fs.Bool("uninstall", false, "remove only the guard's entries")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("guard", err, env)
	}
	if len(pos) > 0 {
		return usagef("guard install: unexpected argument %q (run 'ralph-gate help guard')", pos[0])
	}
	client, err := clients.Lookup(*name)
	if err != nil {
		return usagef("guard install: --agent: %v", err)
	}
	base := orDefault(env.Dir, ".")
	root := base
	if repo, err := gitrepo.Open(base); err == nil {
		if repo.Root() != "" {
			root = repo.Root()
		}
		repo.Close()
	}
	setup := client.Hooks(root, env.Getenv("HOME"), env.Getenv)
	path := *settings
	switch {
	case path == "" && setup.Shared == "":
		return usagef("guard install: no %s to find %s's hooks file: give it with --settings FILE", setup.SharedFrom, client.Title())
	case path == "":
		path = setup.Shared
	case !filepath.IsAbs(path):
		path = filepath.Join(base, path)
	}
	bin := installedBinary()
	if bin == "" {
		bin = "ralph-gate"
	}
	cmd := agent.HookCommand(bin, client)
	changed, err := setup.Install(path, cmd, *uninstall)
	var malformed *hooksfile.MalformedError
	if errors.As(err, &malformed) {
		return inputErr(err)
	}
	if err != nil {
		return inputErr(fmt.Errorf("guard install: %w", err))
	}
	switch {
	case *uninstall && changed:
		fmt.Fprintf(env.Stdout, "ralph-gate: removed the guard's hooks from %s\n", path)
	case *uninstall:
		fmt.Fprintf(env.Stdout, "ralph-gate: no guard hooks in %s; nothing changed\n", path)
	case changed:
		fmt.Fprintf(env.Stdout, "ralph-gate: installed the guard's hooks for %s in %s: every tool call (PreToolUse, PostToolUse) and Stop run %s\n", client.Title(), path, strings.Replace(cmd(agent.Stop), " stop ", " <event> ", 1))
		if setup.Trust != "" {
			fmt.Fprintf(env.Stdout, "ralph-gate: %s\n", setup.Trust)
		}
	default:
		fmt.Fprintf(env.Stdout, "ralph-gate: the guard's hooks are already in %s; nothing changed\n", path)
	}
	return nil
}
