package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/loop"
)

func init() {
	register("start", startHelp, runStart)
	register("record", recordHelp, runRecord)
	register("prompt", promptHelp, runPrompt)
	register("status", statusHelp, runStatus)
	register("pause", transitionHelp("pause"), runTransition("pause", loop.StatusPaused))
	register("resume", transitionHelp("resume"), runTransition("resume", loop.StatusRunning))
	register("abort", transitionHelp("abort"), runTransition("abort", loop.StatusAborted))
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
	fs.StringVar(&l.repo, "repo", "", "repository directory")
	fs.StringVar(&l.loop, "loop", "", "loop id")
	fs.StringVar(&l.format, "format", "text", "text or json")
	if lock {
		fs.DurationVar(&l.wait, "wait", 0, "wait this long for another ralph-gate working on the loop")
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
	return &loop.Env{Repo: repo, Store: loop.NewStore(repo.Root())}, nil
}

func progressLine(env Env) func(string) {
	if !isTerminal(env.Stderr) {
		return nil
	}
	return func(s string) { fmt.Fprintf(env.Stderr, "\r\033[Kralph-gate: %s", s) }
}

func clearProgress(env Env) {
	if isTerminal(env.Stderr) {
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
		if !loop.ValidID(flag) {
			return "", inputErr(fmt.Errorf("--loop %q is not a loop id (like ralph-fix-tests-1a2b3c4d)", flag))
		}
		return flag, nil
	}
	ids, err := le.Store.Loops()
	if err != nil {
		return "", err
	}
	if len(ids) == 0 {
		id, err := loop.MigrateLegacy(ctx, le, owner(env), os.Getppid())
		if err != nil {
			return "", inputErr(err)
		}
		if id != "" {
			fmt.Fprintf(env.Stderr, "ralph-gate: migrated %s/current-loop.json to loop %s\n", loop.RalphDir, id)
			return id, nil
		}
		return "", inputErr(fmt.Errorf("no loop in %s: start one with ralph-gate start --task T --completion CMD", le.Store.Root))
	}
	var active []string
	var latest string
	var latestAt time.Time
	for _, id := range ids {
		snap, err := le.Store.Load(id)
		if err != nil {
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
			return "", inputErr(fmt.Errorf("no readable loop in %s: pass --loop", le.Store.Dir))
		}
		return latest, nil
	}
	return "", inputErr(fmt.Errorf("%d loops are active (%s): pass --loop ID", len(active), strings.Join(active, ", ")))
}

// loadLoop resolves and loads a loop without locking it (read-only commands).
func loadLoop(ctx context.Context, env Env, lf loopFlags) (*loop.Env, *loop.Snapshot, error) {
	le, err := openLoopEnv(env, lf.repo)
	if err != nil {
		return nil, nil, err
	}
	id, err := resolveLoop(ctx, le, lf.loop, env)
	if err != nil {
		return nil, nil, err
	}
	snap, err := le.Store.Load(id)
	if err != nil {
		return nil, nil, err
	}
	return le, snap, nil
}

// lockLoop resolves, locks and loads a loop; the caller unlocks.
func lockLoop(ctx context.Context, env Env, lf loopFlags, op string) (*loop.Env, *loop.Snapshot, *loop.Lock, error) {
	le, err := openLoopEnv(env, lf.repo)
	if err != nil {
		return nil, nil, nil, err
	}
	id, err := resolveLoop(ctx, le, lf.loop, env)
	if err != nil {
		return nil, nil, nil, err
	}
	lock, err := le.Store.Lock(id, op, lf.wait)
	if err != nil {
		return nil, nil, nil, err
	}
	snap, err := le.Store.Load(id)
	if err != nil {
		lock.Unlock()
		return nil, nil, nil, err
	}
	if snap.Replayed > 0 {
		fmt.Fprintf(env.Stderr, "ralph-gate: loop %s: replayed %d journal entries that state.json lacked (an earlier run was interrupted)\n", id, snap.Replayed)
	}
	return le, snap, lock, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func runStart(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("start", env)
	var lf loopFlags
	lf.register(fs, false)
	task := fs.String("task", "", "what the loop should achieve")
	completion := fs.String("completion", "", "command that exits 0 when the task is done")
	maxIter := fs.Int("max-iterations", 0, "iteration limit")
	timeout := fs.Int("timeout-minutes", -1, "overall time limit")
	slug := fs.String("slug", "", "loop id slug")
	noFeedback := fs.Bool("no-feedback", false, "hide findings from prompt's text")
	interactive := fs.Bool("interactive", false, "record asks for a decision on a terminal")
	collectMode := fs.String("collect", "", "auto or none")
	noCache := fs.Bool("no-cache", false, "measure again even when cached")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("start", err, env)
	}
	if len(pos) > 0 {
		return usagef("start: unexpected argument %q (the task goes in --task)", pos[0])
	}
	if err := lf.checkFormat("start"); err != nil {
		return err
	}
	if strings.TrimSpace(*task) == "" {
		return usagef("start: --task is required")
	}
	if strings.TrimSpace(*completion) == "" {
		return usagef("start: --completion is required (a command that exits 0 when the task is done, like \"go test ./...\")")
	}
	if *collectMode != "" && *collectMode != "auto" && *collectMode != "none" {
		return usagef("start: --collect: want auto or none (got %q)", *collectMode)
	}
	if *slug != "" && loop.Slug(*slug) != *slug {
		return usagef("start: --slug: want lower-case letters, digits and hyphens (like %q)", loop.Slug(*slug))
	}
	le, err := openLoopEnv(env, lf.repo)
	if err != nil {
		return err
	}
	le.Collect = *collectMode
	if !*noCache {
		if le.Cache, err = collect.OpenCache(le.Repo); err != nil {
			return err
		}
	}
	le.Progress = progressLine(env)
	opt := loop.StartOptions{Task: *task, Completion: *completion, Slug: *slug, NoFeedback: *noFeedback,
		Interactive: *interactive, Owner: owner(env), PID: os.Getppid()}
	if *maxIter != 0 {
		opt.MaxIterations = maxIter
	}
	if *timeout >= 0 {
		opt.TimeoutMinutes = timeout
	}
	st, notes, err := loop.Start(ctx, le, opt)
	clearProgress(env)
	if err != nil {
		return classifyLoop(err)
	}
	if *collectMode != "" {
		// Keep the loop's collect choice for its records.
		if err := setCollect(le, st.LoopID, *collectMode); err != nil {
			return err
		}
	}
	for _, n := range notes {
		fmt.Fprintf(env.Stderr, "ralph-gate: note: %s\n", n)
	}
	if lf.format == "json" {
		return writeJSON(env.Stdout, map[string]any{"loop_id": st.LoopID, "tag": st.RalphGate.BaselineTag,
			"baseline_commit": st.RalphGate.BaselineCommit, "baseline_metrics": st.BaselineMetrics,
			"settings": st.RalphGate.Settings, "notes": notes})
	}
	fmt.Fprintln(env.Stdout, st.LoopID)
	bm := st.BaselineMetrics
	fmt.Fprintf(env.Stderr, "ralph-gate: started %s at %s (tag %s): baseline %d tests, %d failing, completion %s; max %d iterations\n",
		st.LoopID, st.RalphGate.BaselineCommit[:7], st.RalphGate.BaselineTag, bm.TestCount, len(st.RalphGate.BaselineFailing),
		passFailWord(st.RalphGate.BaselineCompletion.Passed), st.Configuration.MaxIterations)
	return nil
}

func passFailWord(ok bool) string {
	if ok {
		return "passes"
	}
	return "fails"
}

// setCollect stores start's --collect choice in the loop's settings.
func setCollect(le *loop.Env, id, mode string) error {
	lock, err := le.Store.Lock(id, "start", 5*time.Second)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	snap, err := le.Store.Load(id)
	if err != nil {
		return err
	}
	snap.State.RalphGate.Settings.Collect = mode
	return le.Store.Save(snap, "start", snap.State.LastUpdated)
}

// classifyLoop maps the loop package's errors a user causes to exit 2.
func classifyLoop(err error) error {
	var in *loop.InputError
	if errors.As(err, &in) {
		return inputErr(err)
	}
	return classifyGit(err)
}

func runRecord(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("record", env)
	var lf loopFlags
	lf.register(fs, true)
	interactive := fs.Bool("interactive", false, "ask for the human decision on a terminal when blocked")
	noCache := fs.Bool("no-cache", false, "measure again even when cached")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("record", err, env)
	}
	if len(pos) > 0 {
		return usagef("record: unexpected argument %q", pos[0])
	}
	if err := lf.checkFormat("record"); err != nil {
		return err
	}
	if *interactive && !isTerminal(stdinFile(env)) {
		return usagef("record: --interactive needs a terminal on standard input")
	}
	le, snap, lock, err := lockLoop(ctx, env, lf, "record")
	if err != nil {
		return classifyLoop(err)
	}
	defer lock.Unlock()
	if !*noCache {
		if le.Cache, err = collect.OpenCache(le.Repo); err != nil {
			return err
		}
	}
	le.Progress = progressLine(env)
	out, err := loop.Record(ctx, le, snap, os.Getppid())
	clearProgress(env)
	if err != nil {
		var blocked *loop.BlockedError
		if errors.As(err, &blocked) {
			fmt.Fprintf(env.Stderr, "ralph-gate: %s\n", blocked.Msg)
			return &BlockedError{}
		}
		return classifyLoop(err)
	}
	st := snap.State
	if err := writeRecord(env.Stdout, lf.format, st, out); err != nil {
		return err
	}
	for _, n := range out.Notes {
		fmt.Fprintf(env.Stderr, "ralph-gate: note: %s\n", n)
	}
	switch out.Decision {
	case loop.Blocked:
		if *interactive || st.Configuration.Interactive && isTerminal(stdinFile(env)) {
			return interactiveGate(ctx, env, le, snap, out.Gate)
		}
		return &BlockedError{Findings: len(out.Iteration.Findings)}
	case loop.Stopped:
		return &StopError{Reason: out.Reason}
	}
	return nil
}

func stdinFile(env Env) io.Writer {
	if f, ok := env.Stdin.(*os.File); ok {
		return f
	}
	return nil
}

// recordJSON is record's --format json output.
type recordJSON struct {
	LoopID           string         `json:"loop_id"`
	Iteration        int            `json:"iteration"`
	QualityScore     float64        `json:"quality_score"`
	QualityDelta     float64        `json:"quality_delta"`
	QualityBreakdown loop.Breakdown `json:"quality_breakdown"`
	Decision         string         `json:"decision"`
	Reason           string         `json:"reason"`
	Tag              string         `json:"tag"`
	Commit           string         `json:"commit"`
	Void             bool           `json:"void"`
	Verified         bool           `json:"verified"`
	Gate             string         `json:"gate,omitempty"`
	Findings         []gate.Finding `json:"findings"`
	Notes            []string       `json:"notes,omitempty"`
	ReinforcementLvl string         `json:"reinforcement_level"`
	OverheadMS       int64          `json:"overhead_ms"`
}

// maxRecordLines bounds the findings record lists in text.
const maxRecordLines = 15

func writeRecord(w io.Writer, format string, st *loop.State, out *loop.Outcome) error {
	it := out.Iteration
	if format == "json" {
		return writeJSON(w, recordJSON{LoopID: st.LoopID, Iteration: it.Iteration, QualityScore: it.QualityScore,
			QualityDelta: it.QualityDelta, QualityBreakdown: it.QualityBreakdown, Decision: string(out.Decision),
			Reason: out.Reason, Tag: it.Tag, Commit: it.Commit, Void: it.Void, Verified: it.Verified, Gate: out.Gate,
			Findings: it.Findings, Notes: out.Notes, ReinforcementLvl: st.ReinforcementLevel, OverheadMS: out.Overhead.Milliseconds()})
	}
	var b strings.Builder
	b2 := it.QualityBreakdown
	void := ""
	if it.Void {
		void = ", VOID"
	}
	fmt.Fprintf(&b, "%s iteration %d (%s, tag %s)\n", st.LoopID, it.Iteration, it.Commit[:7], it.Tag)
	fmt.Fprintf(&b, "quality %.1f (%+.1f%s): validation %.0f, completeness %.0f, correctness %.0f, readability %.0f, efficiency %.0f\n",
		it.QualityScore, it.QualityDelta, void, b2.Validation, b2.Completeness, b2.Correctness, b2.Readability, b2.Efficiency)
	fmt.Fprintf(&b, "completion: %s\n", passFailWord(it.Verified || (st.Progress.LastCompletionCheck != nil && st.Progress.LastCompletionCheck.Passed)))
	active, shown := 0, 0
	for _, f := range it.Findings {
		if f.Suppressed != "" || !f.Net {
			continue
		}
		active++
		if shown == maxRecordLines {
			continue
		}
		shown++
		where := f.File
		if f.Line > 0 {
			where = fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		subject := f.Test
		if subject == "" {
			subject = f.Symbol
		}
		fmt.Fprintf(&b, "  %-8s %-20s %s %s: %s\n", f.Severity, f.Type, where, subject, f.Message)
	}
	if active == 0 {
		b.WriteString("no findings\n")
	} else if active > shown {
		fmt.Fprintf(&b, "  ... and %d more (all of them: ralph-gate record --format json, or ralph-gate status --regressions)\n", active-shown)
	}
	fmt.Fprintf(&b, "decision: %s\n", out.Reason)
	if out.Decision == loop.Blocked {
		fmt.Fprintf(&b, "a human decides: ralph-gate approve | reject | abort --loop %s\n", st.LoopID)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// interactiveGate asks the human at the terminal and applies the answer.
func interactiveGate(ctx context.Context, env Env, le *loop.Env, snap *loop.Snapshot, gateID string) error {
	decision, err := askDecision(env.Stdin, env.Stderr)
	if err != nil {
		return err
	}
	return applyDecision(ctx, env, le, snap, gateID, decision, "text")
}

// askDecision reads a/r/x (approve, reject, abort) from in.
func askDecision(in io.Reader, out io.Writer) (string, error) {
	sc := bufio.NewScanner(in)
	for {
		fmt.Fprint(out, "[a]pprove (continue with these changes), [r]eject (restore the last good iteration), a[b]ort the loop? ")
		if !sc.Scan() {
			return "", usagef("record: no decision given (end of input): the loop stays paused; run approve, reject or abort")
		}
		switch strings.ToLower(strings.TrimSpace(sc.Text())) {
		case "a", "approve":
			return loop.DecisionApprove, nil
		case "r", "reject":
			return loop.DecisionReject, nil
		case "b", "abort":
			return loop.DecisionAbort, nil
		}
	}
}

func applyDecision(ctx context.Context, env Env, le *loop.Env, snap *loop.Snapshot, gateID, decision, format string) error {
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
		if err := loop.Transition(le, snap, loop.StatusAborted, "abort"); err != nil {
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
	le, snap, lock, err := lockLoop(ctx, env, lf, name)
	if err != nil {
		return classifyLoop(err)
	}
	defer lock.Unlock()
	return applyDecision(ctx, env, le, snap, at(pos, 0), name, lf.format)
}

func runTransition(op string, to loop.Status) func(context.Context, []string, Env) error {
	return func(ctx context.Context, args []string, env Env) error {
		fs := newFlagSet(op, env)
		var lf loopFlags
		lf.register(fs, true)
		pos, err := parseInterspersed(fs, args)
		if err != nil {
			return flagError(op, err, env)
		}
		if len(pos) > 0 {
			return usagef("%s: unexpected argument %q (the loop goes in --loop)", op, pos[0])
		}
		le, snap, lock, err := lockLoop(ctx, env, lf, op)
		if err != nil {
			return classifyLoop(err)
		}
		defer lock.Unlock()
		if err := lf.checkFormat(op); err != nil {
			return err
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
	fs.BoolVar(&sec.Persistence, "persistence", false, "baseline vs current metrics")
	fs.BoolVar(&sec.Regressions, "regressions", false, "regression events")
	fs.BoolVar(&sec.Quality, "quality", false, "quality trajectory")
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
		var states []*loop.State
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
	_, snap, err := loadLoop(ctx, env, lf)
	if err != nil {
		return classifyLoop(err)
	}
	st := snap.State
	if lf.format == "json" {
		return writeJSON(env.Stdout, struct {
			*loop.State
			EffectiveStatus loop.Status `json:"effective_status"`
		}{st, loop.EffectiveStatus(st)})
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
	fmt.Fprintf(env.Stdout, "rebuilt %s from its journal: iteration %d, %s\n", le.Store.StatePath(lf.loop), snap.State.Iteration, snap.State.Status)
	return nil
}
