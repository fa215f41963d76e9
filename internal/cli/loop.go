package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/loop"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
	"github.com/ralph-gate/ralph-gate/internal/terminal"
)

func init() {
	register("start", startHelp, runStart)
	register("record", recordHelp, runRecord)
	register("prompt", promptHelp, runPrompt)
	register("status", statusHelp, runStatus)
	register("pause", transitionHelp("pause"), runTransition("pause", state.StatusPaused))
	register("resume", transitionHelp("resume"), runTransition("resume", state.StatusRunning))
	register("abort", transitionHelp("abort"), runTransition("abort", state.StatusAborted))
	register("approve", gateHelp("approve"), runApprove)
	register("reject", gateHelp("reject"), runReject)
	register("repair", repairHelp, runRepair)
}

// loopFlags are the flags every loop command shares.
type loopFlags struct {
	repo, loop, format string
	wait               time.Duration
}

func (l *loopFlags) register(fs interface {
	StringVar(*string, string, string, string)
	DurationVar(*time.Duration, string, time.Duration, string)
}, lock bool) {
	fs.StringVar(&l.repo, "repo", "", "the repository `DIR` (default: the current directory)")
	fs.StringVar(&l.loop, "loop", "", "the loop `ID` (default: the only active loop)")
	fs.StringVar(&l.format, "format", "text", "output format `F`: text (default) or json")
	if lock {
		fs.DurationVar(&l.wait, "wait", 0, "wait up to `D` for another ralph-gate working on the loop (default: fail at once)")
	}
}

func (l *loopFlags) checkFormat(name string, allowed ...string) error {
	if len(allowed) == 0 {
		allowed = []string{"text", "json"}
	}
	for _, a := range allowed {
		if l.format == a {
			return nil
		}
	}
	return usagef("%s: --format: want %s (got %q)", name, strings.Join(allowed, ", "), l.format)
}

// openLoopEnv opens the repository and the loop store.
func openLoopEnv(env Env, repoFlag string) (*loop.Env, error) {
	dir := repoFlag
	if dir == "" {
		dir = orDefault(env.Dir, ".")
	}
	repo, err := gitrepo.Open(dir)
	if err != nil {
		return nil, classifyGit(err)
	}
	if repo.Root() == "" {
		return nil, inputErr(fmt.Errorf("%s is a bare repository: a loop needs a work tree", dir))
	}
	store, err := sealedStore(env, repo.Root())
	if err != nil {
		return nil, err
	}
	return &loop.Env{Repo: repo, Store: store}, nil
}

// sealedStore is the loop store of the work tree at root, sealed with the
// user's key (loop/state/seal.go).
func sealedStore(env Env, root string) (*state.Store, error) {
	dir, err := sealDir(env)
	if err != nil {
		return nil, err
	}
	key, err := state.LoadSealKey(dir)
	if err != nil {
		return nil, inputErr(err)
	}
	store := state.NewStore(root)
	store.Key = key
	store.SealDir = dir
	return store, nil
}

// openCache opens the repository's measurement cache, sealed with the
// user's key (the code under test can write the cache directory; a forged
// entry must not be read as a measurement). Without a key (no HOME, an
// unreadable config directory) nothing is cached: every end is measured.
func openCache(env Env, repo *gitrepo.Repo) (*collect.Cache, error) {
	dir, err := sealDir(env)
	if err != nil {
		return nil, nil
	}
	key, err := state.LoadSealKey(dir)
	if err != nil {
		return nil, nil
	}
	c, err := collect.OpenCache(repo)
	if err != nil {
		return nil, err
	}
	c.SetKey(key)
	return c, nil
}

// sealDir is where the key that seals loop files lives: outside every
// repository, in the user's config directory (RALPH_GATE_CONFIG_DIR,
// $XDG_CONFIG_HOME/ralph-gate or ~/.config/ralph-gate).
func sealDir(env Env) (string, error) {
	if d := env.Getenv("RALPH_GATE_CONFIG_DIR"); d != "" {
		return d, nil
	}
	if d := env.Getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "ralph-gate"), nil
	}
	if h := env.Getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "ralph-gate"), nil
	}
	return "", usagef("no HOME, XDG_CONFIG_HOME or RALPH_GATE_CONFIG_DIR: ralph-gate keeps the key that seals loop files in the user's config directory")
}

func progressLine(env Env) func(string) {
	if !terminal.Is(env.Stderr) {
		return nil
	}
	return func(s string) { fmt.Fprintf(env.Stderr, "\r\033[Kralph-gate: %s", s) }
}

func clearProgress(env Env) {
	if terminal.Is(env.Stderr) {
		fmt.Fprint(env.Stderr, "\r\033[K")
	}
}

func owner(env Env) string {
	for _, k := range []string{"USER", "LOGNAME", "USERNAME"} {
		if v := env.Getenv(k); v != "" {
			return v
		}
	}
	return "unknown"
}

// resolveLoop picks the loop a command works on: the --loop flag; else the
// only active loop; else, with none active, the most recently started one.
// A legacy current-loop.json is migrated first.
func resolveLoop(ctx context.Context, le *loop.Env, flag string, env Env) (string, error) {
	if flag != "" {
		if !state.ValidID(flag) {
			return "", inputErr(fmt.Errorf("--loop %q is not a loop id (like ralph-fix-tests-1a2b3c4d)", flag))
		}
		return flag, nil
	}
	ids, err := le.Store.Loops()
	if err != nil {
		return "", err
	}
	if len(ids) == 0 {
		id, err := loop.MigrateLegacy(ctx, le, owner(env), 0) // no controlling process: a person or a script drives it
		if err != nil {
			return "", inputErr(err)
		}
		if id != "" {
			fmt.Fprintf(env.Stderr, "ralph-gate: migrated %s/current-loop.json to loop %s\n", state.RalphDir, id)
			return id, nil
		}
		return "", inputErr(fmt.Errorf("no loop in %s: start one with ralph-gate start --task T --completion CMD", le.Store.Root))
	}
	var active []string
	var latest string
	var latestAt time.Time
	var firstErr error
	for _, id := range ids {
		snap, err := le.Store.Load(id)
		var tampered *state.TamperedError
		if errors.As(err, &tampered) {
			// Never fall back to another loop: the one changed behind
			// ralph-gate's back may be the active one.
			return "", classifyLoop(err)
		}
		if err != nil {
			firstErr = cmp.Or(firstErr, err)
			continue
		}
		if !snap.State.Status.Terminal() && !loop.Crashed(snap.State) {
			active = append(active, id)
		}
		if snap.State.StartedAt.After(latestAt) {
			latest, latestAt = id, snap.State.StartedAt
		}
	}
	switch len(active) {
	case 1:
		return active[0], nil
	case 0:
		if latest == "" {
			if firstErr != nil {
				return "", classifyLoop(firstErr)
			}
			return "", inputErr(fmt.Errorf("no readable loop in %s: pass --loop", le.Store.Dir))
		}
		return latest, nil
	}
	return "", inputErr(fmt.Errorf("%d loops are active (%s): pass --loop ID", len(active), strings.Join(active, ", ")))
}

// loadLoop resolves and loads a loop without locking it (read-only commands).
func loadLoop(ctx context.Context, env Env, lf loopFlags) (*loop.Env, *state.Snapshot, error) {
	le, err := openLoopEnv(env, lf.repo)
	if err != nil {
		return nil, nil, err
	}
	id, err := resolveLoop(ctx, le, lf.loop, env)
	if err != nil {
		return nil, nil, err
	}
	if _, err := le.Store.ReadRegistry(); err != nil {
		return nil, nil, classifyLoop(err)
	}
	snap, err := le.Store.Load(id)
	if err != nil {
		return nil, nil, classifyLoop(err)
	}
	return le, snap, nil
}

// lockLoop resolves, locks and loads a loop; the caller unlocks.
func lockLoop(ctx context.Context, env Env, lf loopFlags, op string) (*loop.Env, *state.Snapshot, *state.Lock, error) {
	le, err := openLoopEnv(env, lf.repo)
	if err != nil {
		return nil, nil, nil, err
	}
	id, err := resolveLoop(ctx, le, lf.loop, env)
	if err != nil {
		return nil, nil, nil, err
	}
	if _, err := le.Store.ReadRegistry(); err != nil {
		return nil, nil, nil, classifyLoop(err)
	}
	lock, err := le.Store.Lock(id, op, lf.wait)
	if err != nil {
		return nil, nil, nil, err
	}
	snap, err := le.Store.Load(id)
	if err != nil {
		lock.Unlock()
		return nil, nil, nil, classifyLoop(err)
	}
	if n := snap.Replayed; n > 0 {
		if err := le.Store.Flush(snap); err != nil {
			lock.Unlock()
			return nil, nil, nil, err
		}
		fmt.Fprintf(env.Stderr, "ralph-gate: loop %s: replayed %d journal entries that state.json lacked (an earlier run was interrupted)\n", id, n)
	}
	return le, snap, lock, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// classifyLoop maps the loop package's errors a user causes to exit 2.
func classifyLoop(err error) error {
	var in *loop.InputError
	var tampered *state.TamperedError
	var link *state.LinkError
	if errors.As(err, &in) || errors.As(err, &tampered) || errors.As(err, &link) {
		return inputErr(err)
	}
	return classifyGit(err)
}

func applyDecision(ctx context.Context, env Env, le *loop.Env, snap *state.Snapshot, gateID, decision, format string) error {
	st := snap.State
	out := map[string]any{"loop_id": st.LoopID, "decision": decision}
	var text string
	switch decision {
	case loop.DecisionApprove:
		g, err := loop.Approve(le, snap, gateID)
		if err != nil {
			return classifyLoop(err)
		}
		out["iteration"], out["gate"] = g.Iteration, g.RecoveryID
		text = fmt.Sprintf("approved iteration %d of %s (gate %s); the loop continues\n", g.Iteration, st.LoopID, g.RecoveryID)
	case loop.DecisionReject:
		g, commit, good, err := loop.Reject(ctx, le, snap, gateID)
		if err != nil {
			return classifyLoop(err)
		}
		out["iteration"], out["gate"], out["restored_iteration"], out["restore_commit"] = g.Iteration, g.RecoveryID, good, commit
		text = fmt.Sprintf("rejected iteration %d of %s: restored iteration %d as commit %s; the loop continues\n", g.Iteration, st.LoopID, good, commit[:7])
	case loop.DecisionAbort:
		if err := loop.Transition(le, snap, state.StatusAborted, "abort"); err != nil {
			return classifyLoop(err)
		}
		text = fmt.Sprintf("aborted %s\n", st.LoopID)
	}
	out["status"] = st.Status
	if format == "json" {
		return writeJSON(env.Stdout, out)
	}
	_, err := io.WriteString(env.Stdout, text)
	return err
}

func runApprove(ctx context.Context, args []string, env Env) error {
	return runGate(ctx, "approve", args, env)
}
func runReject(ctx context.Context, args []string, env Env) error {
	return runGate(ctx, "reject", args, env)
}

func runGate(ctx context.Context, name string, args []string, env Env) error {
	fs := newFlagSet(name, env)
	var lf loopFlags
	lf.register(fs, true)
	by := fs.String("by", "", "`NAME` of the person who decides (required when standard input is not a terminal)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError(name, err, env)
	}
	if len(pos) > 1 {
		return usagef("%s: want at most one EVENT_ID, got %d arguments", name, len(pos))
	}
	if err := lf.checkFormat(name); err != nil {
		return err
	}
	decider, err := deciderOf(name, *by, env)
	if err != nil {
		return err
	}
	le, snap, lock, err := lockLoop(ctx, env, lf, name)
	if err != nil {
		return classifyLoop(err)
	}
	defer lock.Unlock()
	le.Decider = decider
	return applyDecision(ctx, env, le, snap, at(pos, 0), name, lf.format)
}

// deciderOf names who makes a human decision (loop.Decider): the user at a
// terminal, else the --by name.
func deciderOf(op, by string, env Env) (string, error) {
	who, err := loop.Decider(by, terminal.Is(env.Stdin), owner(env))
	if err != nil {
		return "", usagef("%s: %v", op, err)
	}
	return who, nil
}

func runTransition(op string, to state.Status) func(context.Context, []string, Env) error {
	return func(ctx context.Context, args []string, env Env) error {
		fs := newFlagSet(op, env)
		var lf loopFlags
		lf.register(fs, true)
		extend := 0
		if op == "resume" {
			fs.IntVar(&extend, "extend", 0, "add `N` iterations to a loop that stopped at its maximum")
		}
		var by *string
		if to == state.StatusAborted {
			by = fs.String("by", "", "`NAME` of the person who aborts (required when standard input is not a terminal)")
		}
		pos, err := parseInterspersed(fs, args)
		if err != nil {
			return flagError(op, err, env)
		}
		if len(pos) > 0 {
			return usagef("%s: unexpected argument %q (the loop goes in --loop)", op, pos[0])
		}
		if extend < 0 {
			return usagef("%s: --extend %d: the number of iterations to add must be positive", op, extend)
		}
		var decider string
		if by != nil {
			// Aborting ends the loop for good and answers a pending gate:
			// a human decision, as approve and reject are.
			if decider, err = deciderOf(op, *by, env); err != nil {
				return err
			}
		}
		le, snap, lock, err := lockLoop(ctx, env, lf, op)
		if err != nil {
			return classifyLoop(err)
		}
		defer lock.Unlock()
		le.Decider = decider
		if err := lf.checkFormat(op); err != nil {
			return err
		}
		if extend > 0 {
			loop.ExtendIterations(snap.State, extend)
		}
		from := loop.EffectiveStatus(snap.State)
		if err := loop.Transition(le, snap, to, op); err != nil {
			return classifyLoop(err)
		}
		if lf.format == "json" {
			return writeJSON(env.Stdout, map[string]any{"loop_id": snap.State.LoopID, "from": from, "to": to})
		}
		fmt.Fprintf(env.Stdout, "%s: %s -> %s\n", snap.State.LoopID, from, to)
		return nil
	}
}

func runPrompt(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("prompt", env)
	var lf loopFlags
	lf.register(fs, false)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("prompt", err, env)
	}
	if len(pos) > 0 {
		return usagef("prompt: unexpected argument %q", pos[0])
	}
	if err := lf.checkFormat("prompt"); err != nil {
		return err
	}
	_, snap, err := loadLoop(ctx, env, lf)
	if err != nil {
		return classifyLoop(err)
	}
	text := loop.Prompt(snap.State)
	if lf.format == "json" {
		return writeJSON(env.Stdout, map[string]any{"loop_id": snap.State.LoopID, "iteration": snap.State.Iteration + 1,
			"reinforcement_level": snap.State.ReinforcementLevel, "text": text})
	}
	_, err = io.WriteString(env.Stdout, text)
	return err
}

func runStatus(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("status", env)
	var lf loopFlags
	lf.register(fs, false)
	all := fs.Bool("all", false, "every loop of the repository")
	var sec loop.Sections
	fs.BoolVar(&sec.Persistence, "persistence", false, "the persistence section: baseline against current metrics")
	fs.BoolVar(&sec.Regressions, "regressions", false, "the regressions section: regression events")
	fs.BoolVar(&sec.Quality, "quality", false, "the quality section: the quality trajectory")
	markFP := fs.String("mark-fp", "", "mark finding or event `ID` as a false positive")
	by := fs.String("by", "", "`NAME` of who marks it (required when standard input is not a terminal)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("status", err, env)
	}
	if len(pos) > 0 {
		return usagef("status: unexpected argument %q", pos[0])
	}
	if err := lf.checkFormat("status"); err != nil {
		return err
	}
	if *all {
		le, err := openLoopEnv(env, lf.repo)
		if err != nil {
			return err
		}
		ids, err := le.Store.Loops()
		if err != nil {
			return err
		}
		var states []*state.State
		for _, id := range ids {
			snap, err := le.Store.Load(id)
			if err != nil {
				fmt.Fprintf(env.Stderr, "ralph-gate: %v\n", err)
				continue
			}
			states = append(states, snap.State)
		}
		sort.SliceStable(states, func(i, j int) bool { return states[i].StartedAt.Before(states[j].StartedAt) })
		if lf.format == "json" {
			list := []map[string]any{}
			for _, st := range states {
				list = append(list, map[string]any{"loop_id": st.LoopID, "status": loop.EffectiveStatus(st), "iteration": st.Iteration,
					"max_iterations": st.Configuration.MaxIterations, "task": st.Task, "best_iteration": st.BestIteration})
			}
			return writeJSON(env.Stdout, map[string]any{"loops": list})
		}
		return loop.WriteList(env.Stdout, states)
	}
	if *markFP != "" {
		return markFalsePositive(ctx, env, lf, *markFP, *by)
	}
	le, snap, err := loadLoop(ctx, env, lf)
	if err != nil {
		return classifyLoop(err)
	}
	st := snap.State
	calls, _ := le.Store.ToolCalls(st.LoopID)
	summary := loop.SummarizeToolCalls(calls)
	loop.UpdatePersistence(st, summary)
	if lf.format == "json" {
		tokens, cost := loop.UsageTotals(st)
		return writeJSON(env.Stdout, struct {
			*state.State
			EffectiveStatus state.Status `json:"effective_status"`
			// TotalTokens and TotalCostUSD: what the agent reported, null
			// when it reported nothing (never 0).
			TotalTokens  *int     `json:"total_tokens"`
			TotalCostUSD *float64 `json:"total_cost_usd"`
			// ToolCalls counts the guard's log: tool_call_history by tool,
			// risky_actions, denials and Stop hook events.
			ToolCalls loop.ToolCallSummary `json:"tool_calls"`
			// ToolCallHistory and RiskyActions are the seeds' names for the
			// log itself: every tool call, and the risky ones.
			ToolCallHistory []state.ToolCall `json:"tool_call_history"`
			RiskyActions    []state.ToolCall `json:"risky_actions"`
		}{st, loop.EffectiveStatus(st), tokens, cost, summary, loop.ToolCallHistory(calls), nonNil(summary.Risky)})
	}
	return loop.WriteStatus(env.Stdout, st, sec)
}

func runRepair(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("repair", env)
	var lf loopFlags
	lf.register(fs, true)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("repair", err, env)
	}
	if len(pos) > 0 || lf.loop == "" {
		return usagef("repair: want --loop ID and no arguments")
	}
	le, err := openLoopEnv(env, lf.repo)
	if err != nil {
		return err
	}
	lock, err := le.Store.Lock(lf.loop, "repair", lf.wait)
	if err != nil {
		return classifyLoop(err)
	}
	defer lock.Unlock()
	snap, kept, err := le.Store.Rebuild(lf.loop, time.Now())
	if err != nil {
		return inputErr(err)
	}
	if kept != "" {
		fmt.Fprintf(env.Stderr, "ralph-gate: kept the damaged state as %s\n", kept)
	}
	if snap.Dropped > 0 {
		fmt.Fprintf(env.Stderr, "ralph-gate: left out the journal's last %d entries: their seals do not verify\n", snap.Dropped)
	}
	fmt.Fprintf(env.Stdout, "rebuilt %s from its journal: iteration %d, %s\n", le.Store.StatePath(lf.loop), snap.State.Iteration, snap.State.Status)
	moved, err := loop.MoveLostTags(ctx, le.Store.Root, lf.loop, snap.State.Iteration)
	if err != nil {
		return err
	}
	if len(moved) > 0 {
		fmt.Fprintf(env.Stdout, "moved the tags of %d iteration(s) the rebuilt history lacks to %s\n", len(moved), strings.Join(moved, ", "))
	}
	var tampered *state.TamperedError
	if _, err := le.Store.ReadRegistry(); errors.As(err, &tampered) {
		skipped, err := le.Store.RebuildRegistry(time.Now())
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "rebuilt %s from the loops' verified states\n", tampered.Path)
		for _, id := range skipped {
			fmt.Fprintf(env.Stderr, "ralph-gate: left loop %s out of the registry: its state does not load (ralph-gate repair --loop %s)\n", id, id)
		}
	}
	return nil
}

// markFalsePositive is status --mark-fp ID --by NAME: a person's judgement,
// so it needs a name (or a terminal), and the loop's lock.
func markFalsePositive(ctx context.Context, env Env, lf loopFlags, id, by string) error {
	who, err := deciderOf("status --mark-fp", by, env)
	if err != nil {
		return err
	}
	le, snap, lock, err := lockLoop(ctx, env, lf, "mark-fp")
	if err != nil {
		return classifyLoop(err)
	}
	defer lock.Unlock()
	added, err := loop.MarkFalsePositive(le, snap, id, who)
	if err != nil {
		return classifyLoop(err)
	}
	pm := snap.State.PersistenceMetrics
	if lf.format == "json" {
		return writeJSON(env.Stdout, map[string]any{"loop_id": snap.State.LoopID, "marked": added, "persistence_metrics": pm})
	}
	if len(added) == 0 {
		fmt.Fprintf(env.Stdout, "%s was already marked as a false positive\n", id)
		return nil
	}
	rate := "n/a"
	if pm.FalsePositiveRate != nil {
		rate = fmt.Sprintf("%.3f", *pm.FalsePositiveRate)
	}
	fmt.Fprintf(env.Stdout, "marked %d finding(s) of %s as false positive (by %s); they no longer block. false positives %d, true positives %d, rate %s\n",
		len(added), snap.State.LoopID, who, pm.FalsePositiveCount, pm.TruePositiveCount, rate)
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
