package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/errkind"

	"github.com/ralph-gate/ralph-gate/internal/agent"
	"github.com/ralph-gate/ralph-gate/internal/agent/clients"
	"github.com/ralph-gate/ralph-gate/internal/agent/hooksfile"
	"github.com/ralph-gate/ralph-gate/internal/loop"
	"github.com/ralph-gate/ralph-gate/internal/loop/agentrun"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

func init() {
	register("run", strings.Replace(runCmdHelp, "@PRESETS@\n", presetsHelp(), 1), runRun)
}

// presetsHelp lists the clients' presets, one indented line each.
func presetsHelp() string {
	var b strings.Builder
	for _, c := range clients.All {
		cmd := c.Preset()
		if c.Hooks("", "", func(string) string { return "" }).RunArgs != nil {
			cmd += " (and the guard's hooks, trusted for the run)"
		}
		fmt.Fprintf(&b, "  %-7s %s\n", c.Name(), cmd)
	}
	return b.String()
}

// InterruptedError is a run stopped by SIGINT or SIGTERM: the loop is
// paused, and running again resumes it.
type InterruptedError struct{ Loop string }

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("interrupted: loop %s is paused, nothing is lost; run again to resume it", e.Loop)
}

// Kind: Ctrl-C or SIGTERM; the loop is paused.
func (e *InterruptedError) Kind() errkind.Kind { return errkind.Interrupted }

type runFlags struct {
	lf                  loopFlags
	agent               string
	task, completion    string
	slug, collect       string
	noCache             bool
	allPackages         bool
	mutation            optBool
	maxIter, extend     int
	iterTimeout         time.Duration
	budgetUSD           float64
	budgetTokens        int
	onBlock             string
	noCheckoutBest      bool
	timeoutMinutes      int
	setUSD, setTokens   bool
	setTimeout, setMaxI bool
}

func runRun(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("run", env)
	var f runFlags
	f.lf.register(fs, true)
	fs.Lookup("format").Usage = "the result on standard output in format `F`: text (default) or json"
	fs.StringVar(&f.agent, "agent", "", "the agent `A`: "+strings.Join(clients.Names(), ", ")+", or the command that runs the agent (required for a new loop; kept for the next runs)")
	fs.StringVar(&f.task, "task", "", "a new loop's task `T`, as start takes it")
	fs.StringVar(&f.completion, "completion", "", "a new loop's completion command `CMD`, as start takes it")
	fs.StringVar(&f.slug, "slug", "", "a new loop's id slug `S`, as start takes it")
	fs.StringVar(&f.collect, "collect", "", "a new loop's collect setting, `auto|none`, as start takes it")
	fs.BoolVar(&f.noCache, "no-cache", false, "measure again even when cached")
	fs.BoolVar(&f.allPackages, "all-packages", false, "run every package's tests in every iteration (see record)")
	fs.Var(&f.mutation, "mutation", "mutate the lines the loop changed and run the affected tests against each mutant (default true; --mutation=false or mutation.enabled: false turns it off)")
	fs.IntVar(&f.maxIter, "max-iterations", 0, "iteration limit `N` (a new loop: default 10)")
	fs.IntVar(&f.extend, "extend", 0, "add `N` iterations to the loop")
	fs.IntVar(&f.timeoutMinutes, "timeout-minutes", -1, "a new loop's overall time limit `M` in minutes, as start takes it")
	fs.DurationVar(&f.iterTimeout, "iteration-timeout", 0, "stop the agent's process group after `D` (like 30m)")
	fs.Float64Var(&f.budgetUSD, "budget-usd", 0, "stop once the reported cost reaches `X` dollars")
	fs.IntVar(&f.budgetTokens, "budget-tokens", 0, "stop once the reported tokens reach `N`")
	fs.StringVar(&f.onBlock, "on-block", "", "on a block, `reject|stop`: restore the last good iteration and go on (reject, the default), or hand the first block to a human")
	fs.BoolVar(&f.noCheckoutBest, "no-checkout-best", false, "leave HEAD where the loop ended")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("run", err, env)
	}
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "budget-usd":
			f.setUSD = true
		case "budget-tokens":
			f.setTokens = true
		case "iteration-timeout":
			f.setTimeout = true
		case "max-iterations":
			f.setMaxI = true
		}
	})
	if len(pos) > 0 {
		return usagef("run: unexpected argument %q (the task goes in --task, the agent in --agent)", pos[0])
	}
	if err := f.check(); err != nil {
		return err
	}
	le, err := openLoopEnv(env, f.lf.repo)
	if err != nil {
		return err
	}
	if !f.noCache {
		if le.Cache, err = openCache(env, le.Repo); err != nil {
			return err
		}
	}
	le.AllPackages = f.allPackages
	le.MutationByDefault, le.Mutation = true, f.mutation.ptr()
	id, err := runLoopID(ctx, le, &f, env)
	if err != nil {
		return err
	}
	lock, err := le.Store.Lock(id, "run", f.lf.wait)
	if err != nil {
		return classifyLoop(err)
	}
	defer lock.Unlock()
	snap, err := le.Store.Load(id)
	if err != nil {
		return classifyLoop(err)
	}
	if err := le.Store.Flush(snap); err != nil {
		return err
	}
	opt, err := f.settle(snap.State)
	if err != nil {
		return err
	}
	if f.extend > 0 {
		loop.ExtendIterations(snap.State, f.extend)
	}
	if f.setMaxI && f.maxIter > snap.State.Configuration.MaxIterations {
		loop.ExtendIterations(snap.State, f.maxIter-snap.State.Configuration.MaxIterations)
	}
	if err := guardAgent(env, le, snap.State.RalphGate.Run.Agent, &opt, false); err != nil {
		return err
	}
	agentArg := snap.State.RalphGate.Run.Agent
	opt.BeforeAgent = func() error { return guardAgent(env, le, agentArg, nil, true) }
	opt.PID = os.Getpid()
	opt.Say = func(format string, args ...any) {
		fmt.Fprintf(env.Stderr, "ralph-gate: "+format+"\n", args...)
	}
	le.Progress = progressLine(env)
	for k, v := range env.Withheld {
		le.AgentEnv = append(le.AgentEnv, k+"="+v)
	}
	sort.Strings(le.AgentEnv)
	res, err := loop.Drive(ctx, le, snap, opt)
	clearProgress(env)
	if err != nil {
		var budget *loop.BudgetError
		var stopped *loop.StoppedError
		var waiting *loop.BlockedError
		switch {
		case errors.As(err, &budget):
			return inputErr(err)
		case errors.As(err, &stopped):
			fmt.Fprintf(env.Stderr, "ralph-gate: %s\n", stopped.Msg)
			return &StopError{Reason: stopped.Msg}
		case errors.As(err, &waiting):
			fmt.Fprintf(env.Stderr, "ralph-gate: %s\n", waiting.Msg)
			return &BlockedError{}
		}
		return classifyLoop(err)
	}
	return finishRun(ctx, env, le, snap.State, res, f)
}

func (f *runFlags) check() error {
	if err := f.lf.checkFormat("run"); err != nil {
		return err
	}
	switch {
	case f.onBlock != "" && f.onBlock != "reject" && f.onBlock != "stop":
		return usagef("run: --on-block: want reject or stop (got %q)", f.onBlock)
	case f.extend < 0:
		return usagef("run: --extend %d: the number of iterations to add must be positive", f.extend)
	case f.setMaxI && f.maxIter <= 0:
		return usagef("run: --max-iterations %d: want a positive number", f.maxIter)
	case f.iterTimeout < 0:
		return usagef("run: --iteration-timeout %s: want a positive duration like 30m", f.iterTimeout)
	case f.setUSD && !(f.budgetUSD > 0):
		return usagef("run: --budget-usd %g: want a positive amount of dollars", f.budgetUSD)
	case f.setTokens && f.budgetTokens <= 0:
		return usagef("run: --budget-tokens %d: want a positive number of tokens", f.budgetTokens)
	case f.collect != "" && f.collect != "auto" && f.collect != "none":
		return usagef("run: --collect: want auto or none (got %q)", f.collect)
	case f.slug != "" && state.Slug(f.slug) != f.slug:
		return usagef("run: --slug: want lower-case letters, digits and hyphens (like %q)", state.Slug(f.slug))
	case strings.TrimSpace(f.agent) == "" && f.agent != "":
		return usagef("run: --agent: empty command")
	}
	return nil
}

// runLoopID finds the loop run drives: --loop, else the one active loop
// (running, paused, or left by a controller that died), else a new one
// started from --task and --completion.
func runLoopID(ctx context.Context, le *loop.Env, f *runFlags, env Env) (string, error) {
	if _, err := le.Store.ReadRegistry(); err != nil {
		return "", classifyLoop(err)
	}
	if f.lf.loop != "" {
		if !state.ValidID(f.lf.loop) {
			return "", inputErr(fmt.Errorf("--loop %q is not a loop id (like ralph-fix-tests-1a2b3c4d)", f.lf.loop))
		}
		return f.lf.loop, nil
	}
	ids, err := le.Store.Loops()
	if err != nil {
		return "", err
	}
	var active []*state.State
	for _, id := range ids {
		snap, err := le.Store.Load(id)
		var tampered *state.TamperedError
		if errors.As(err, &tampered) {
			return "", classifyLoop(err)
		}
		if err != nil {
			continue
		}
		if st := snap.State; !st.Status.Terminal() {
			active = append(active, st)
		}
	}
	switch len(active) {
	case 0:
	case 1:
		st := active[0]
		if f.task != "" && strings.TrimSpace(f.task) != strings.TrimSpace(st.Task) {
			return "", inputErr(fmt.Errorf("loop %s is active with another task (%q): run without --task to go on with it, or end it first (ralph-gate abort --loop %s)", st.LoopID, summaryOf(st.Task), st.LoopID))
		}
		if f.completion != "" && f.completion != st.CompletionCriteria {
			return "", inputErr(fmt.Errorf("loop %s is active with another completion command (%q): run without --completion to go on with it, or end it first", st.LoopID, st.CompletionCriteria))
		}
		fmt.Fprintf(env.Stderr, "ralph-gate: continuing loop %s at iteration %d\n", st.LoopID, st.Iteration+1)
		return st.LoopID, nil
	default:
		var names []string
		for _, st := range active {
			names = append(names, st.LoopID)
		}
		return "", inputErr(fmt.Errorf("%d loops are active (%s): pass --loop ID", len(active), strings.Join(names, ", ")))
	}
	// A new loop.
	if strings.TrimSpace(f.task) == "" || strings.TrimSpace(f.completion) == "" {
		return "", usagef("run: no active loop in %s: a new one needs --task T and --completion CMD", le.Store.Root)
	}
	if f.agent == "" {
		return "", usagef("run: --agent is required: %s, or the command that runs your agent", strings.Join(clients.Names(), ", "))
	}
	if f.extend > 0 {
		return "", usagef("run: --extend adds iterations to an existing loop; a new one takes --max-iterations N")
	}
	// run commits everything the agent leaves: the work tree must hold
	// nothing of the user's that would be committed with it.
	if left, err := agentrun.Uncommitted(ctx, le.Store.Root); err != nil {
		return "", err
	} else if left != "" {
		return "", inputErr(fmt.Errorf("%s has uncommitted changes (%s): run commits what the agent leaves in the work tree, so commit, stash or ignore them first", le.Store.Root, left))
	}
	le.Collect = f.collect
	le.Progress = progressLine(env)
	opt := loop.StartOptions{Task: f.task, Completion: f.completion, Slug: f.slug, Owner: owner(env)}
	if f.setMaxI {
		opt.MaxIterations = &f.maxIter
	}
	if f.timeoutMinutes >= 0 {
		opt.TimeoutMinutes = &f.timeoutMinutes
	}
	st, notes, err := loop.Start(ctx, le, opt)
	clearProgress(env)
	if err != nil {
		return "", classifyLoop(err)
	}
	if f.collect != "" {
		if err := setCollect(le, st.LoopID, f.collect); err != nil {
			return "", err
		}
	}
	for _, n := range notes {
		fmt.Fprintf(env.Stderr, "ralph-gate: note: %s\n", n)
	}
	bm := st.BaselineMetrics
	fmt.Fprintf(env.Stderr, "ralph-gate: started %s at %s: baseline %d tests, %d failing, completion %s; max %d iterations\n",
		st.LoopID, st.RalphGate.BaselineCommit[:7], bm.TestCount, len(st.RalphGate.BaselineFailing),
		passFailWord(st.RalphGate.BaselineCompletion.Passed), st.Configuration.MaxIterations)
	f.setMaxI = false // start applied it
	return st.LoopID, nil
}

func summaryOf(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// settle merges the flags with what earlier runs of the loop kept: a flag
// given now wins and is kept for the next run.
func (f *runFlags) settle(st *state.State) (loop.DriveOptions, error) {
	rs := st.RalphGate.Run
	if rs == nil {
		rs = &state.RunSettings{}
	}
	if f.agent != "" {
		rs.Agent = f.agent
	}
	if rs.Agent == "" {
		return loop.DriveOptions{}, usagef("run: --agent is required: %s, or the command that runs your agent", strings.Join(clients.Names(), ", "))
	}
	if f.setTimeout {
		rs.IterationTimeout = f.iterTimeout.String()
	}
	if f.setUSD {
		v := f.budgetUSD
		rs.BudgetUSD = &v
	}
	if f.setTokens {
		v := f.budgetTokens
		rs.BudgetTokens = &v
	}
	if f.onBlock != "" {
		rs.OnBlock = f.onBlock
	}
	if rs.OnBlock == "" {
		rs.OnBlock = "reject"
	}
	st.RalphGate.Run = rs
	cmd := rs.Agent
	if c, err := clients.Lookup(cmd); err == nil {
		cmd = c.Preset()
	}
	opt := loop.DriveOptions{Agent: cmd, BudgetUSD: rs.BudgetUSD, BudgetTokens: rs.BudgetTokens, OnBlock: rs.OnBlock}
	if rs.IterationTimeout != "" {
		d, err := time.ParseDuration(rs.IterationTimeout)
		if err != nil {
			return opt, inputErr(fmt.Errorf("loop %s: iteration_timeout %q: %v", st.LoopID, rs.IterationTimeout, err))
		}
		opt.IterationTimeout = d
	}
	return opt, nil
}

// finishRun checks out the best iteration when the loop ended, prints the
// result and maps it to the exit code.
func finishRun(ctx context.Context, env Env, le *loop.Env, st *state.State, res *loop.DriveResult, f runFlags) error {
	out := map[string]any{"loop_id": st.LoopID, "end": res.End, "reason": res.Reason, "status": loop.EffectiveStatus(st),
		"iteration": st.Iteration, "iterations_this_run": res.Iterations, "best_iteration": nil, "checked_out": nil}
	tokens, cost := loop.UsageTotals(st)
	out["total_tokens"], out["total_cost_usd"] = tokens, cost
	var lines []string
	switch res.End {
	case loop.EndCompleted:
		lines = append(lines, fmt.Sprintf("%s completed at iteration %d: %s", st.LoopID, st.Iteration, res.Reason))
	case loop.EndStopped:
		lines = append(lines, fmt.Sprintf("%s stopped at iteration %d without completion: %s", st.LoopID, st.Iteration, res.Reason))
	case loop.EndHuman:
		lines = append(lines, fmt.Sprintf("%s is waiting for a human at iteration %d: %s", st.LoopID, st.Iteration, res.Reason),
			fmt.Sprintf("decide with: ralph-gate approve | reject | abort --loop %s (--by NAME), then run again", st.LoopID))
	case loop.EndInterrupted:
		lines = append(lines, fmt.Sprintf("%s paused at iteration %d (interrupted); run again to resume", st.LoopID, st.Iteration))
	}
	if sel := loop.SelectBest(st, st.RalphGate.Settings.QualityThreshold); sel.Iteration != nil {
		b := sel.Iteration
		out["best_iteration"] = map[string]any{"iteration": b.Iteration, "tag": b.Tag, "commit": b.Commit, "quality_score": b.QualityScore, "verified": b.Verified}
		if (res.End == loop.EndCompleted || res.End == loop.EndStopped) && !f.noCheckoutBest {
			at, err := checkoutBest(ctx, le, b, env.Stderr)
			if err != nil {
				return classifyLoop(err)
			}
			out["checked_out"] = b.Tag
			lines = append(lines, fmt.Sprintf("best: iteration %d (quality %.1f), %s", b.Iteration, b.QualityScore, at))
		} else {
			lines = append(lines, fmt.Sprintf("best so far: iteration %d (quality %.1f, tag %s)", b.Iteration, b.QualityScore, b.Tag))
		}
	}
	usage := "tokens and cost: not reported by the agent"
	if tokens != nil {
		usage = fmt.Sprintf("tokens: %d", *tokens)
		if cost != nil {
			usage += fmt.Sprintf(", cost: $%.4f", *cost)
		}
	}
	lines = append(lines, usage)
	if f.lf.format == "json" {
		if err := writeJSON(env.Stdout, out); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(env.Stdout, strings.Join(lines, "\n"))
	}
	switch res.End {
	case loop.EndCompleted:
		return nil
	case loop.EndHuman:
		return &BlockedError{}
	case loop.EndInterrupted:
		return &InterruptedError{Loop: st.LoopID}
	}
	return &StopError{Reason: res.Reason}
}

// checkoutBest checks out the best iteration's tag, unless HEAD already is
// that commit.
func checkoutBest(ctx context.Context, le *loop.Env, b *state.Iteration, stderr io.Writer) (string, error) {
	head, err := le.Repo.Resolve("HEAD")
	if err != nil {
		return "", err
	}
	if head.String() == b.Commit {
		return "which HEAD already is", nil
	}
	note, err := loop.Checkout(ctx, le.Store.Root, b)
	if err != nil {
		return "", err
	}
	if note != "" {
		fmt.Fprintf(stderr, "ralph-gate: %s\n", note)
	}
	return fmt.Sprintf("checked out %s (detached HEAD; keep it with git switch -c BRANCH)", b.Tag), nil
}

// guardAgent makes sure the agent runs guarded when it is a client
// ralph-gate knows (a preset, or a command that runs one): a preset that
// takes its hooks on the command line gets them there, trusted for the run;
// otherwise the guard's hooks go into the client's hooks file for runs
// (which git is told to ignore, so no iteration commits it, and which the
// guard keeps the agent from editing), unless the project's own settings
// already run them.
//
// Before each later iteration (again set), only the hooks file is looked at:
// hooks an agent removed by means the guard cannot see (a script writing
// the file) are put back before the client starts and reads them, and the
// user is told.
func guardAgent(env Env, le *loop.Env, agentArg string, opt *loop.DriveOptions, again bool) error {
	client, err := clients.Lookup(agentArg)
	preset := err == nil
	if !preset {
		client = clients.ForCommand(agentArg)
	}
	if client == nil {
		return nil
	}
	root := le.Store.Root
	setup := client.Hooks(root, env.Getenv("HOME"), env.Getenv)
	bin := installedBinary()
	if bin == "" {
		bin = "ralph-gate"
	}
	cmd := agent.HookCommand(bin, client)
	if setup.RunArgs != nil {
		if again {
			return nil // on the command line, out of the agent's reach
		}
		if preset {
			opt.Agent += " " + setup.RunArgs(cmd)
			return nil
		}
		if !setup.Installed(setup.Shared) {
			fmt.Fprintf(env.Stderr, "ralph-gate: note: %s runs no guard hooks in this command: use --agent %s, or ralph-gate guard install --agent %s (%s)\n",
				client.Title(), client.Name(), client.Name(), setup.Trust)
		}
		return nil
	}
	if setup.Installed(setup.Shared) || setup.Installed(setup.File) {
		return nil
	}
	if head, err := le.Repo.Resolve("HEAD"); err == nil && setup.Exclude != "" {
		if _, err := le.Repo.ReadFile(head, setup.Exclude); err == nil {
			// The file is the project's, committed: the iteration commits
			// would carry the hooks. The user installs them.
			fmt.Fprintf(env.Stderr, "ralph-gate: note: the guard's hooks are not in %s, which the project commits: %s's tool calls are not judged before they run (ralph-gate guard install --agent %s)\n", setup.Exclude, client.Title(), client.Name())
			return nil
		}
	}
	_, err = setup.Install(setup.File, cmd, false)
	var malformed *hooksfile.MalformedError
	if again && errors.As(err, &malformed) {
		// What the agent left there is not a settings file: it goes, and
		// the hooks come back.
		if err := os.Remove(setup.File); err != nil {
			return fmt.Errorf("put the guard's hooks back in %s: %w", setup.File, err)
		}
		_, err = setup.Install(setup.File, cmd, false)
	}
	if err != nil {
		return inputErr(fmt.Errorf("install the guard's hooks in %s: %w", setup.File, err))
	}
	if again {
		fmt.Fprintf(env.Stderr, "ralph-gate: the guard's hooks were gone from %s after the last iteration (changed outside the guard's view); they are back\n", setup.File)
		return nil
	}
	if setup.Exclude != "" {
		if err := state.ExcludePath(state.CommonGitDir(le.Repo.GitDir()), setup.Exclude, "ralph-gate guard hooks (ralph-gate run)"); err != nil {
			return err
		}
	}
	rel, _ := filepath.Rel(root, setup.File)
	fmt.Fprintf(env.Stderr, "ralph-gate: installed the guard's hooks in %s, so %s's tool calls are judged before they run (remove them with: ralph-gate guard install --agent %s --settings %s --uninstall)\n",
		filepath.ToSlash(rel), client.Title(), client.Name(), filepath.ToSlash(rel))
	return nil
}
