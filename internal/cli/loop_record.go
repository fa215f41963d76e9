package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
	"github.com/ralph-gate/ralph-gate/internal/terminal"
)

func runStart(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("start", env)
	var lf loopFlags
	lf.register(fs, false)
	fs.Lookup("loop").Usage = "refused: start makes a new loop (the other loop commands take --loop `ID`)"
	fs.Lookup("format").Usage = "output format `F`: text (default: the loop id alone) or json"
	task := fs.String("task", "", "what the loop should achieve, `T` (required)")
	completion := fs.String("completion", "", "shell command `CMD` that exits 0 when the task is done (required)")
	maxIter := fs.Int("max-iterations", 0, "iteration limit `N` (default 10)")
	timeout := fs.Int("timeout-minutes", -1, "overall time limit `M` in minutes (default none)")
	slug := fs.String("slug", "", "the loop id's slug `S` (default: from the task)")
	noFeedback := fs.Bool("no-feedback", false, "prompt gives the level's text only, never the findings")
	interactive := fs.Bool("interactive", false, "record asks approve/reject/abort on a terminal when blocked")
	collectMode := fs.String("collect", "", "whether to run the collectors each iteration, `auto|none` (default auto)")
	noCache := fs.Bool("no-cache", false, "measure the baseline again even when cached")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("start", err, env)
	}
	if len(pos) > 0 {
		return usagef("start: unexpected argument %q (the task goes in --task)", pos[0])
	}
	if lf.loop != "" {
		return usagef("start: --loop: start makes a new loop; the other loop commands take --loop")
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
	if *slug != "" && state.Slug(*slug) != *slug {
		return usagef("start: --slug: want lower-case letters, digits and hyphens (like %q)", state.Slug(*slug))
	}
	le, err := openLoopEnv(env, lf.repo)
	if err != nil {
		return err
	}
	le.Collect = *collectMode
	if !*noCache {
		if le.Cache, err = openCache(env, le.Repo); err != nil {
			return err
		}
	}
	le.Progress = progressLine(env)
	opt := loop.StartOptions{Task: *task, Completion: *completion, Slug: *slug, NoFeedback: *noFeedback,
		Interactive: *interactive, Owner: owner(env)}
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

func runRecord(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("record", env)
	var lf loopFlags
	lf.register(fs, true)
	interactive := fs.Bool("interactive", false, "on a block, ask approve / reject / abort on the terminal (standard input must be one)")
	noCache := fs.Bool("no-cache", false, "measure again even when cached")
	var mutation optBool
	fs.Var(&mutation, "mutation", "mutate the lines the loop changed since its baseline and run the affected tests against each mutant (default: mutation.enabled, else off)")
	allPackages := fs.Bool("all-packages", false, "run every package's tests; by default HEAD runs the Go packages the iteration can affect and takes the others' results from the previous iteration's measurement")
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
	if *interactive && !terminal.Is(env.Stdin) {
		return usagef("record: --interactive asks a person, and standard input is not a terminal (a pipe, a file or /dev/null): run it at a terminal, or drop --interactive and decide with approve | reject | abort --by NAME")
	}
	le, snap, lock, err := lockLoop(ctx, env, lf, "record")
	if err != nil {
		return classifyLoop(err)
	}
	defer lock.Unlock()
	if !*noCache {
		if le.Cache, err = openCache(env, le.Repo); err != nil {
			return err
		}
	}
	le.Progress = progressLine(env)
	le.AllPackages = *allPackages
	le.Mutation = mutation.ptr()
	out, err := loop.Record(ctx, le, snap, 0)
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
		if *interactive || st.Configuration.Interactive && terminal.Is(env.Stdin) {
			return interactiveGate(ctx, env, le, snap, out.Gate)
		}
		return &BlockedError{Findings: len(out.Iteration.Findings)}
	case loop.Stopped:
		return &StopError{Reason: out.Reason}
	}
	return nil
}

func writeRecord(w io.Writer, format string, st *state.State, out *loop.Outcome) error {
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
func interactiveGate(ctx context.Context, env Env, le *loop.Env, snap *state.Snapshot, gateID string) error {
	decision, err := askDecision(env.Stdin, env.Stderr)
	if err != nil {
		return err
	}
	le.Decider = owner(env) // asked at a terminal: the user decided
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

// recordJSON is record's --format json output.
type recordJSON struct {
	LoopID           string          `json:"loop_id"`
	Iteration        int             `json:"iteration"`
	QualityScore     float64         `json:"quality_score"`
	QualityDelta     float64         `json:"quality_delta"`
	QualityBreakdown state.Breakdown `json:"quality_breakdown"`
	Decision         string          `json:"decision"`
	Reason           string          `json:"reason"`
	Tag              string          `json:"tag"`
	Commit           string          `json:"commit"`
	Void             bool            `json:"void"`
	Verified         bool            `json:"verified"`
	Gate             string          `json:"gate,omitempty"`
	Findings         []gate.Finding  `json:"findings"`
	Notes            []string        `json:"notes,omitempty"`
	ReinforcementLvl string          `json:"reinforcement_level"`
	OverheadMS       int64           `json:"overhead_ms"`
}

// maxRecordLines bounds the findings record lists in text.
const maxRecordLines = 15
