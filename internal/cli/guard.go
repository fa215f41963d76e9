package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/guard"
	"github.com/ralph-gate/ralph-gate/internal/loop"
)

func init() { register("guard", guardHelp, runGuard) }

const guardHelp = `Usage:
  ralph-gate guard pre-tool-use | post-tool-use | stop   (Claude Code hook JSON on stdin)
  ralph-gate guard install [--settings FILE] [--uninstall]

Claude Code hooks that guard every tool call of an agent (see docs/guard.md).

pre-tool-use judges a Write, Edit, MultiEdit or Bash call before it runs. A
file change is analyzed statically as the change from the file now to the file
the call would leave; a finding at the fail-on severity (fail_on in
.ralph-gate.yml at HEAD, default high) denies the call, with the finding and
what to do instead. Any change to the gate's own state and configuration
(.aiwg/ralph, .ralph-gate.yml, aiwg.yml, .claude/settings*.json, .git) is
denied. A shell command is parsed (through sh -c, eval, pipes, xargs, find
-exec, env and other wrappers) and denied when it deletes or moves test files
out of the test paths, skips git hooks (--no-verify, core.hooksPath,
RALPH_GATE_SKIP), force-pushes, rewrites the loop's ralph/* tags, resets to
before the loop's baseline, or runs a human's ralph-gate command (approve,
reject, abort, repair, pause, resume). A denial is printed as Claude Code's
permissionDecision "deny"; anything else prints nothing.

post-tool-use appends the call (tool, file or command, risky or not by the
seeds' risk patterns) to the running loop's tool-call log; 'ralph-gate status'
counts them. Without a running loop it does nothing.

stop, in a running loop, blocks the agent from stopping while the committed
and uncommitted work since the last recorded iteration has a finding at the
fail-on severity or fails the completion command (run in a clean temporary
worktree). Once Claude Code reports stop_hook_active it blocks at most
guard.max_stop_blocks times in a row (default 3), then lets the agent stop and
records an event for a human. Without a running loop it allows the stop.

install merges the three hooks into FILE (default .claude/settings.json at
the repository's root), keeping every other key and hook; installing twice is
installing once. --uninstall removes only the guard's entries.

Exit codes: 0 (a decision, or none, was given), 2 malformed hook input or
settings file (Claude Code then blocks the call), 3 internal error.

Examples:
  ralph-gate guard install
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
		if len(rest) > 0 {
			if rest[0] == "-h" || rest[0] == "--help" {
				showHelp(env.Stdout, "guard", env)
				return nil
			}
			return usagef("guard %s: unexpected argument %q: the hook input comes on standard input", sub, rest[0])
		}
	default:
		return usagef("guard: unknown subcommand %q: want pre-tool-use, post-tool-use, stop or install", sub)
	}
	event := map[string]guard.Event{"pre-tool-use": guard.PreToolUse, "post-tool-use": guard.PostToolUse, "stop": guard.Stop}[sub]
	var in io.Reader = env.Stdin
	if in == nil || stdinIsTerminal(env) {
		return usagef("guard %s: reads Claude Code's hook JSON on standard input; run it from a hook (ralph-gate guard install)", sub)
	}
	p, err := guard.ParsePayload(in, event)
	if err != nil {
		return inputErr(err)
	}
	h, err := openGuardWorkspace(p, env)
	if err != nil {
		return err
	}
	defer h.close()
	switch event {
	case guard.PreToolUse:
		return guardPreToolUse(h, p, env)
	case guard.PostToolUse:
		return guardPostToolUse(h, p)
	}
	return guardStop(ctx, h, p, env)
}

// guardWorkspace is the repository a hook call happens in.
type guardWorkspace struct {
	ws    *guard.Workspace
	repo  *gitrepo.Repo // nil outside a repository
	store *loop.Store
}

func (h *guardWorkspace) close() {
	if h.repo != nil {
		h.repo.Close()
	}
}

// openGuardWorkspace finds the repository from the payload's cwd (else
// CLAUDE_PROJECT_DIR, else the process's directory) and reads the
// configuration from HEAD's tree: the working tree is the agent's.
func openGuardWorkspace(p *guard.Payload, env Env) (*guardWorkspace, error) {
	cwd := p.Cwd
	if cwd == "" {
		cwd = env.Getenv("CLAUDE_PROJECT_DIR")
	}
	if cwd == "" {
		cwd = orDefault(env.Dir, ".")
	}
	if !filepath.IsAbs(cwd) {
		base := orDefault(env.Dir, ".")
		cwd = filepath.Join(base, cwd)
	}
	if abs, err := filepath.Abs(cwd); err == nil {
		cwd = abs
	}
	repo, err := gitrepo.Open(cwd)
	if errors.Is(err, gitrepo.ErrUnsupported) {
		// A repository ralph-gate cannot read (SHA-256 object names) is the
		// gate's all the same: its .git, configuration and loop state stay
		// out of reach, under the default rules.
		if root, gitDir, derr := gitrepo.Discover(cwd); derr == nil && root != "" {
			ws := guard.NewWorkspace(root, gitDir, cwd, nil)
			if dir, err := sealDir(env); err == nil {
				ws.SetPrivate(dir)
			}
			return &guardWorkspace{ws: ws}, nil
		}
	}
	if err != nil || repo.Root() == "" {
		if repo != nil {
			repo.Close()
		}
		// Outside a repository nothing is the gate's: only the shell
		// rules that need no repository apply.
		ws := guard.NewWorkspace("", "", cwd, nil)
		if dir, err := sealDir(env); err == nil {
			ws.SetPrivate(dir)
		}
		return &guardWorkspace{ws: ws}, nil
	}
	cfg := config.Default()
	if head, err := repo.Resolve("HEAD"); err == nil {
		c, err := config.AtCommit(repo, head, "HEAD")
		var invalid *config.InvalidError
		if errors.As(err, &invalid) {
			repo.Close()
			return nil, inputErr(err)
		}
		if err != nil {
			repo.Close()
			return nil, err
		}
		cfg = c
	}
	store, err := sealedStore(env, repo.Root())
	if err != nil {
		repo.Close()
		return nil, err
	}
	ws := guard.NewWorkspace(repo.Root(), repo.GitDir(), cwd, cfg)
	if dir, err := sealDir(env); err == nil {
		ws.SetPrivate(dir)
	}
	return &guardWorkspace{ws: ws, repo: repo, store: store}, nil
}

func failOnOf(cfg *config.Config) gate.FailOn {
	if cfg.FailOn != nil {
		return gate.FailOn(*cfg.FailOn)
	}
	return gate.FailOn(gate.SeverityHigh)
}

// hookStart is when this process started: a hook's detection latency runs
// from the moment Claude Code handed it the call.
var hookStart = time.Now()

func guardPreToolUse(h *guardWorkspace, p *guard.Payload, env Env) error {
	g := &guard.Guard{WS: h.ws, FailOn: failOnOf(h.ws.Config)}
	if h.repo != nil {
		g.Loop = guard.NewLoopHistory(h.repo, h.store)
	}
	d, err := g.PreToolUse(p)
	if err != nil {
		return inputErr(err)
	}
	if !d.Deny {
		return nil
	}
	if h.store != nil {
		// A denial is a detection: logged with its latency for the loop's
		// persistence_metrics (best effort: the answer matters more).
		if snap, err := guard.ActiveLoop(h.store); err == nil && snap != nil {
			_ = guard.RecordDenied(h.store, snap.State, h.ws, p, d.Reason, time.Now(), time.Since(hookStart))
		}
	}
	return writeHookJSON(env.Stdout, map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": d.Reason,
	}})
}

func guardPostToolUse(h *guardWorkspace, p *guard.Payload) error {
	if h.store == nil {
		return nil
	}
	snap, err := guard.ActiveLoop(h.store)
	if err != nil || snap == nil {
		return nil
	}
	return guard.Record(h.store, snap.State, h.ws, p, time.Now())
}

func guardStop(ctx context.Context, h *guardWorkspace, p *guard.Payload, env Env) error {
	if h.store == nil {
		return nil
	}
	snap, err := guard.ActiveLoop(h.store)
	if err != nil || snap == nil {
		return nil
	}
	if len(snap.State.PendingGates()) > 0 {
		// A human decides on a blocked iteration first: the agent may stop
		// and wait.
		return nil
	}
	// The loop's rules are the ones record applies: the configuration at its
	// baseline.
	cfg := h.ws.Config
	if base, err := h.repo.Resolve(snap.State.RalphGate.BaselineCommit); err == nil {
		if c, err := config.AtCommit(h.repo, base, "the loop's baseline"); err == nil {
			cfg = c
		}
	}
	check := &guard.StopCheck{Root: h.ws.Root, Store: h.store, Snap: snap, Config: cfg, FailOn: failOnOf(cfg), Active: p.StopHookActive, Now: time.Now()}
	reason, err := check.Decide(ctx)
	if err != nil {
		return err
	}
	if reason == "" {
		return nil
	}
	return writeHookJSON(env.Stdout, map[string]any{"decision": "block", "reason": reason})
}

func writeHookJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func runGuardInstall(args []string, env Env) error {
	fs := newFlagSet("guard install", env)
	settings := fs.String("settings", "", "the Claude Code settings `FILE` to install into (default: .claude/settings.json of the repository)")
	uninstall := fs.Bool("uninstall", false, "remove only the guard's entries")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("guard", err, env)
	}
	if len(pos) > 0 {
		return usagef("guard install: unexpected argument %q (run 'ralph-gate help guard')", pos[0])
	}
	path := *settings
	base := orDefault(env.Dir, ".")
	if path == "" {
		path = filepath.Join(".claude", "settings.json")
		if repo, err := gitrepo.Open(base); err == nil {
			if repo.Root() != "" {
				base = repo.Root()
			}
			repo.Close()
		}
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(base, path)
	}
	bin := installedBinary()
	if bin == "" {
		bin = "ralph-gate"
	}
	changed, err := guard.InstallFile(path, bin, *uninstall)
	var malformed *guard.MalformedError
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
		fmt.Fprintf(env.Stdout, "ralph-gate: installed the guard's hooks in %s: PreToolUse and PostToolUse (%s) and Stop run %s\n", path, guard.Matcher, guard.HookCommand(bin, "<event>"))
	default:
		fmt.Fprintf(env.Stdout, "ralph-gate: the guard's hooks are already in %s; nothing changed\n", path)
	}
	return nil
}
