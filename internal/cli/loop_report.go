package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/loop"
)

func init() {
	register("analytics", analyticsHelp, runAnalytics)
	register("best", bestHelp, runBest)
}

func runAnalytics(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("analytics", env)
	var lf loopFlags
	lf.register(fs, false)
	fs.Lookup("format").Usage = "output format `F`: text (default), json or csv"
	export := fs.String("export", "", "write the report to `FILE`")
	formatSet := false
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("analytics", err, env)
	}
	for _, a := range args {
		if a == "--format" || a == "-format" || strings.HasPrefix(a, "--format=") || strings.HasPrefix(a, "-format=") {
			formatSet = true
		}
	}
	if len(pos) > 0 {
		return usagef("analytics: unexpected argument %q", pos[0])
	}
	if *export != "" && !formatSet {
		switch strings.ToLower(filepath.Ext(*export)) {
		case ".json":
			lf.format = "json"
		case ".csv":
			lf.format = "csv"
		}
	}
	if err := lf.checkFormat("analytics", "text", "json", "csv"); err != nil {
		return err
	}
	_, snap, err := loadLoop(ctx, env, lf)
	if err != nil {
		return classifyLoop(err)
	}
	a := loop.BuildAnalytics(snap.State)
	var buf bytes.Buffer
	switch lf.format {
	case "json":
		err = writeJSON(&buf, a)
	case "csv":
		err = loop.WriteAnalyticsCSV(&buf, a)
	default:
		err = loop.WriteAnalyticsText(&buf, snap.State, a)
	}
	if err != nil {
		return err
	}
	if *export != "" {
		if err := os.WriteFile(*export, buf.Bytes(), 0o644); err != nil {
			return inputErr(fmt.Errorf("analytics: --export %s: %w", *export, err))
		}
		fmt.Fprintf(env.Stderr, "ralph-gate: wrote %s analytics of %s to %s\n", lf.format, snap.State.LoopID, *export)
		return nil
	}
	_, err = env.Stdout.Write(buf.Bytes())
	return err
}

func runBest(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("best", env)
	var lf loopFlags
	lf.register(fs, false)
	checkout := fs.Bool("checkout", false, "check out the best iteration's tag")
	threshold := fs.Float64("threshold", -1, "the least quality score `S` (default: the loop's, 70)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("best", err, env)
	}
	if len(pos) > 0 {
		return usagef("best: unexpected argument %q", pos[0])
	}
	if err := lf.checkFormat("best"); err != nil {
		return err
	}
	if *threshold > 100 {
		return usagef("best: --threshold: want 0 to 100 (got %g)", *threshold)
	}
	le, snap, err := loadLoop(ctx, env, lf)
	if err != nil {
		return classifyLoop(err)
	}
	st := snap.State
	th := st.RalphGate.Settings.QualityThreshold
	if *threshold >= 0 {
		th = *threshold
	}
	sel := loop.SelectBest(st, th)
	if lf.format == "json" {
		out := map[string]any{"loop_id": st.LoopID, "threshold": th, "reason": sel.Reason, "iteration": nil}
		if it := sel.Iteration; it != nil {
			out["iteration"] = it.Iteration
			out["quality_score"] = it.QualityScore
			out["tag"] = it.Tag
			out["commit"] = it.Commit
			out["verified"] = it.Verified
		}
		if err := writeJSON(env.Stdout, out); err != nil {
			return err
		}
	} else if it := sel.Iteration; it != nil {
		fmt.Fprintf(env.Stdout, "best: iteration %d of %s, quality %.1f, tag %s (%s)\n%s\n", it.Iteration, st.LoopID, it.QualityScore, it.Tag, it.Commit[:7], sel.Reason)
	} else {
		fmt.Fprintf(env.Stdout, "best: none in %s: %s\n", st.LoopID, sel.Reason)
	}
	if sel.Iteration == nil {
		return &BlockedError{}
	}
	if *checkout {
		note, err := loop.Checkout(ctx, le.Store.Root, sel.Iteration)
		if err != nil {
			return classifyLoop(err)
		}
		if note != "" {
			fmt.Fprintf(env.Stderr, "ralph-gate: %s\n", note)
		}
		fmt.Fprintf(env.Stderr, "ralph-gate: checked out %s (detached HEAD); keep it with: git switch -c <branch>\n", sel.Iteration.Tag)
	}
	return nil
}
