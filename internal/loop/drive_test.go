//go:build unix

package loop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// claudeLine is a Claude stream-json result line: 15 tokens, $0.01.
const claudeLine = `{"type":"result","total_cost_usd":0.01,"usage":{"input_tokens":10,"output_tokens":5}}`

// scriptedAgent writes a fake agent, a shell script outside the repository: it
// keeps the prompt it reads on standard input as prompt-N.md beside itself
// (N the iteration), then runs the case of its iteration in the work tree.
// Fixture files it may copy are written beside it first.
type scriptedAgent struct {
	dir string
}

func newScriptedAgent(t *testing.T, cases map[int]string, fixtures map[string]string) *scriptedAgent {
	t.Helper()
	a := &scriptedAgent{dir: t.TempDir()}
	for name, content := range fixtures {
		if err := os.WriteFile(filepath.Join(a.dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "A=%q\ncat > \"$A/prompt-$RALPH_GATE_ITERATION.md\"\ncase $RALPH_GATE_ITERATION in\n", a.dir)
	for n, script := range cases {
		fmt.Fprintf(&b, "%d)\n%s\n;;\n", n, script)
	}
	b.WriteString("*)\n" + cases[0] + "\n;;\nesac\n")
	if err := os.WriteFile(filepath.Join(a.dir, "agent.sh"), []byte(b.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	return a
}

func (a *scriptedAgent) command() string { return "sh " + filepath.Join(a.dir, "agent.sh") }

func (a *scriptedAgent) prompt(t *testing.T, n int) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(a.dir, fmt.Sprintf("prompt-%d.md", n)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// saying collects what Drive says.
type saying struct{ lines []string }

func (s *saying) say(format string, args ...any) {
	s.lines = append(s.lines, fmt.Sprintf(format, args...))
}
func (s *saying) String() string { return strings.Join(s.lines, "\n") }

// TestDriveCompletes: the agent fixes the code in iteration 1 and
// writes DONE in iteration 2; each iteration is committed and recorded
// with the agent's usage, and the completion ends the run.
func TestDriveCompletes(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "fix the calc package", Completion: "test -f DONE"})
	a := newScriptedAgent(t, map[int]string{
		1: `cp "$A/fixed.go" calc.go; echo '` + claudeLine + `'; echo "working on $RALPH_GATE_LOOP_ID" >&2`,
		2: `echo done > DONE; echo '` + claudeLine + `'`,
	}, map[string]string{"fixed.go": fixedAdd})
	var say saying
	var echo strings.Builder
	res, err := Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid(), Say: say.say, Echo: &echo})
	if err != nil {
		t.Fatal(err)
	}
	s := snap.State
	if res.End != EndCompleted || res.Iterations != 2 || res.Reason != "the completion command passed" || res.Last == nil || res.Last.Iteration.Iteration != 2 {
		t.Fatalf("result = %+v", res)
	}
	if s.Status != state.StatusCompleted || s.PID != nil || s.Iteration != 2 {
		t.Errorf("state %s, pid %v, iteration %d", s.Status, s.PID, s.Iteration)
	}
	for _, it := range s.IterationHistory {
		if it.Agent == nil || it.Agent.ExitCode != 0 || it.TokensUsed == nil || *it.TokensUsed != 15 || it.TokenCostUSD == nil || *it.TokenCostUSD != 0.01 ||
			it.Agent.Log != ".aiwg/ralph/loops/"+s.LoopID+fmt.Sprintf("/agent/iter-%03d.log", it.Iteration) {
			t.Errorf("iteration %d agent = %+v, tokens %v", it.Iteration, it.Agent, it.TokensUsed)
		}
	}
	if s.Metrics.TotalTokens == nil || *s.Metrics.TotalTokens != 30 {
		t.Errorf("total tokens = %v", s.Metrics.TotalTokens)
	}
	if r.read("calc.go") != fixedAdd || r.git("status", "--porcelain") != "" {
		t.Errorf("the agent's work is not committed: %s", r.git("status", "--porcelain"))
	}
	if msg := r.git("log", "-1", "--format=%s"); msg != "ralph-gate: iteration 2" {
		t.Errorf("last commit = %q", msg)
	}
	if p := a.prompt(t, 1); !strings.HasPrefix(p, "fix the calc package\n") || !strings.Contains(p, "ralph-gate, iteration 1") {
		t.Errorf("prompt 1:\n%s", p)
	}
	if p := a.prompt(t, 2); !strings.Contains(p, "`test -f DONE` failed (exit 1) in iteration 1") {
		t.Errorf("prompt 2 does not carry iteration 1's evidence:\n%s", p)
	}
	if !strings.Contains(echo.String(), "working on "+s.LoopID) {
		t.Errorf("echo = %q", echo.String())
	}
	log, err := os.ReadFile(filepath.Join(e.Store.LoopDir(s.LoopID), "agent", "iter-001.log"))
	if err != nil || !strings.Contains(string(log), `"type":"result"`) || !strings.Contains(string(log), "working on") {
		t.Errorf("agent log = %q, %v", log, err)
	}
	for _, want := range []string{"iteration 1: running the agent (prompt .aiwg/ralph/loops/" + s.LoopID + "/prompts/iter-001.md)",
		"iteration 1: the agent finished in", ", 15 tokens, $0.0100 (log ", "iteration 2: quality"} {
		if !strings.Contains(say.String(), want) {
			t.Errorf("said lacks %q:\n%s", want, say.String())
		}
	}
	if hooks := hooksOf(t, e, s.LoopID); !strings.HasPrefix(hooks, "loop_start loop_run post_iteration") {
		t.Errorf("hooks = %s", hooks)
	}
	// A finished loop is not driven again.
	var in *InputError
	if _, err := Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid()}); !errors.As(err, &in) || !strings.Contains(err.Error(), "is completed") {
		t.Errorf("drive a completed loop: %v", err)
	}
}

// TestDriveBudgets: a budget stops the loop paused once its totals
// reach it; a budget the agent does not report is a BudgetError.
func TestDriveBudgets(t *testing.T) {
	t.Parallel()
	// Each iteration writes a different letter, so that no two fail alike.
	letters := map[int]string{}
	for n, l := range []string{"a", "b", "c", "d", "e"} {
		letters[n+1] = "echo " + l + " > progress.txt; echo '%s'"
	}
	agent := func(t *testing.T, line string) *scriptedAgent {
		cases := map[int]string{0: "true"}
		for n, c := range letters {
			cases[n] = fmt.Sprintf(c, line)
		}
		return newScriptedAgent(t, cases, nil)
	}
	tests := []struct {
		name       string
		line       string
		opt        DriveOptions
		iterations int
		reason     string
		budgetErr  string
	}{
		{name: "tokens", line: claudeLine, opt: DriveOptions{BudgetTokens: intPtr(20)}, iterations: 2,
			reason: "budget: the loop used 30 tokens, its budget is 20 (--budget-tokens)"},
		{name: "dollars", line: claudeLine, opt: DriveOptions{BudgetUSD: floatPtr(0.015)}, iterations: 2,
			reason: "budget: the loop cost $0.0200, its budget is $0.0150 (--budget-usd)"},
		{name: "tokens not reported", line: "no usage here", opt: DriveOptions{BudgetTokens: intPtr(20)}, iterations: 1,
			budgetErr: "--budget-tokens 20 cannot be kept: the agent reported no token usage in 1 iteration(s)"},
		{name: "cost not reported", line: `{"type":"turn.completed","usage":{"input_tokens":10,"output_tokens":5}}`, opt: DriveOptions{BudgetUSD: floatPtr(1)}, iterations: 1,
			budgetErr: "--budget-usd 1 cannot be kept: the agent reported no cost in 1 iteration(s)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newLoopRepo(t)
			e := r.env()
			snap := r.start(e, StartOptions{Task: "t", Completion: "cat progress.txt; false"})
			opt := tt.opt
			opt.Agent, opt.PID = agent(t, tt.line).command(), os.Getpid()
			res, err := Drive(context.Background(), e, snap, opt)
			s := snap.State
			if tt.budgetErr != "" {
				var be *BudgetError
				if !errors.As(err, &be) || !strings.Contains(err.Error(), tt.budgetErr) {
					t.Fatalf("err = %v, want a BudgetError %q", err, tt.budgetErr)
				}
				if !strings.HasPrefix(s.RalphGate.StopReason, "budget: "+tt.budgetErr) {
					t.Errorf("stop reason = %q", s.RalphGate.StopReason)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if res.End != EndStopped || res.Reason != tt.reason || s.RalphGate.StopReason != tt.reason {
					t.Errorf("result %+v, stop reason %q", res, s.RalphGate.StopReason)
				}
			}
			if res.Iterations != tt.iterations || s.Iteration != tt.iterations || s.Status != state.StatusPaused || s.PID != nil {
				t.Errorf("iterations %d (state %d), status %s, pid %v", res.Iterations, s.Iteration, s.Status, s.PID)
			}
		})
	}
}

func floatPtr(v float64) *float64 { return &v }

// TestDriveBudgetRaised: a loop stopped by its budget goes on when it
// is run again with a larger one.
func TestDriveBudgetRaised(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "t", Completion: "cat progress.txt; false"})
	a := newScriptedAgent(t, map[int]string{
		0: "true",
		1: "echo a > progress.txt; echo '" + claudeLine + "'",
		2: "echo b > progress.txt; echo '" + claudeLine + "'",
	}, nil)
	res, err := Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid(), BudgetTokens: intPtr(15)})
	if err != nil || res.End != EndStopped || snap.State.Iteration != 1 {
		t.Fatalf("first run: %+v, %v", res, err)
	}
	res, err = Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid(), BudgetTokens: intPtr(30)})
	if err != nil || res.End != EndStopped || res.Iterations != 1 || snap.State.Iteration != 2 || !strings.Contains(res.Reason, "used 30 tokens") {
		t.Fatalf("second run: %+v, %v", res, err)
	}
	if snap.State.RalphGate.WindowStart != 0 {
		t.Errorf("a budget stop opened a new window at %d", snap.State.RalphGate.WindowStart)
	}
}

// TestDriveOnBlock: a blocked iteration is rejected by the run itself
// (the evidence goes to the next prompt), or, with --on-block stop, left
// to a human.
func TestDriveOnBlock(t *testing.T) {
	t.Parallel()
	fixtures := map[string]string{"cheat_test.go": withoutSub}
	cases := map[int]string{
		1: `cp "$A/cheat_test.go" calc_test.go`,
		2: `echo done > DONE`,
	}
	t.Run("reject", func(t *testing.T) {
		t.Parallel()
		r := newLoopRepo(t)
		e := r.env()
		snap := r.start(e, StartOptions{Task: "fix", Completion: "test -f DONE"})
		a := newScriptedAgent(t, cases, fixtures)
		var say saying
		res, err := Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid(), Say: say.say})
		if err != nil {
			t.Fatal(err)
		}
		s := snap.State
		if res.End != EndCompleted || res.Iterations != 2 || s.Status != state.StatusCompleted {
			t.Fatalf("result %+v, status %s", res, s.Status)
		}
		if r.read("calc_test.go") != calcTestSource {
			t.Error("the deleted test was not restored")
		}
		g := s.RecoveryHistory[0]
		if !strings.HasPrefix(g.ProtocolSteps.Escalate.HumanDecision, "reject - by "+RunDecider+"; restored iteration 0") {
			t.Errorf("decision = %q", g.ProtocolSteps.Escalate.HumanDecision)
		}
		if p := a.prompt(t, 2); !strings.Contains(p, "restore the test TestSub") || !strings.Contains(p, "the tree of the baseline again") {
			t.Errorf("prompt 2:\n%s", p)
		}
		for _, want := range []string{"critical test_deletion calc_test.go", "iteration 1: rejected (gate " + g.RecoveryID + "): restored the baseline as commit"} {
			if !strings.Contains(say.String(), want) {
				t.Errorf("said lacks %q:\n%s", want, say.String())
			}
		}
	})
	t.Run("stop", func(t *testing.T) {
		t.Parallel()
		r := newLoopRepo(t)
		e := r.env()
		snap := r.start(e, StartOptions{Task: "fix", Completion: "test -f DONE"})
		a := newScriptedAgent(t, cases, fixtures)
		res, err := Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid(), OnBlock: "stop"})
		if err != nil {
			t.Fatal(err)
		}
		s := snap.State
		if res.End != EndHuman || !strings.Contains(res.Reason, "--on-block stop") || s.Status != state.StatusPaused || s.PID != nil || len(s.PendingGates()) != 1 {
			t.Fatalf("result %+v, status %s, pid %v", res, s.Status, s.PID)
		}
		var blocked *BlockedError
		if _, err := Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid()}); !errors.As(err, &blocked) {
			t.Errorf("drive at a gate: %v", err)
		}
	})
}

// TestDriveInterrupted: a cancelled context stops the agent's process
// group; the loop is left paused without a controller, the agent's work in
// the work tree, and the next run records it first.
func TestDriveInterrupted(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "fix", Completion: "test -f DONE"})
	fifo := filepath.Join(t.TempDir(), "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// The agent edits, tells the test it runs, and waits to be stopped: had
	// it not been, it would finish and say so.
	a := newScriptedAgent(t, map[int]string{
		1: `cp "$A/fixed.go" calc.go; echo started > "` + fifo + `"; sleep 30; echo finished > "$A/finished"`,
	}, map[string]string{"fixed.go": fixedAdd})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Opening the fifo waits for the agent; then Ctrl-C.
		if data, err := os.ReadFile(fifo); err == nil && len(data) > 0 {
			cancel()
		}
	}()
	var say saying
	res, err := Drive(ctx, e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid(), Say: say.say})
	if err != nil {
		t.Fatal(err)
	}
	s := snap.State
	if res.End != EndInterrupted || res.Reason != "interrupted" || res.Iterations != 0 {
		t.Fatalf("result = %+v", res)
	}
	if s.Status != state.StatusPaused || s.PID != nil || s.Iteration != 0 || s.RalphGate.StopReason != "" {
		t.Errorf("state %s, pid %v, iteration %d", s.Status, s.PID, s.Iteration)
	}
	if re := r.load(e, s.LoopID).State; re.Status != state.StatusPaused || re.PID != nil {
		t.Errorf("saved state %s, pid %v", re.Status, re.PID)
	}
	if r.read("calc.go") != fixedAdd || !strings.Contains(r.git("status", "--porcelain"), "calc.go") {
		t.Error("the agent's work is not left in the work tree")
	}
	if _, err := os.Stat(filepath.Join(a.dir, "finished")); err == nil {
		t.Error("the agent was not stopped by the interrupt: it finished")
	}
	if !strings.Contains(say.String(), "iteration 1: interrupted") {
		t.Errorf("said:\n%s", say.String())
	}
	if hooks := hooksOf(t, e, s.LoopID); !strings.HasSuffix(hooks, "loop_pause") {
		t.Errorf("hooks = %s", hooks)
	}
	// The next run records the work left behind, then goes on.
	b := newScriptedAgent(t, map[int]string{2: "echo done > DONE"}, nil)
	say = saying{}
	res, err = Drive(context.Background(), e, snap, DriveOptions{Agent: b.command(), PID: os.Getpid(), Say: say.say})
	if err != nil {
		t.Fatal(err)
	}
	if res.End != EndCompleted || res.Iterations != 2 || s.Find(1).Agent != nil || s.Find(2).Agent == nil {
		t.Fatalf("second run: %+v", res)
	}
	if !strings.Contains(say.String(), "recording the work left in the repository (uncommitted changes: M calc.go) as iteration 1") {
		t.Errorf("said:\n%s", say.String())
	}
}

// TestDriveStoppedAndReturn: a loop stopped at its limit needs more
// iterations; a run after a checkout of an earlier iteration goes back to
// the loop's last commit on its branch first.
func TestDriveStoppedAndReturn(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "t", Completion: "cat progress.txt; false", MaxIterations: intPtr(2)})
	a := newScriptedAgent(t, map[int]string{
		0: "true",
		1: "echo a > progress.txt",
		2: "echo b > progress.txt",
		3: "echo c > progress.txt",
	}, nil)
	res, err := Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid()})
	if err != nil || res.End != EndStopped || res.Reason != "max iterations reached (2)" || snap.State.Status != state.StatusPaused {
		t.Fatalf("first run: %+v, %v", res, err)
	}
	if s := snap.State; s.Find(1).TokensUsed != nil {
		t.Errorf("usage without a report: %v", *s.Find(1).TokensUsed)
	}
	var stopped *StoppedError
	if _, err := Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid()}); !errors.As(err, &stopped) || !strings.Contains(err.Error(), "--extend") {
		t.Fatalf("drive at the limit: %v", err)
	}
	last := r.head()
	if _, err := Checkout(context.Background(), r.dir, snap.State.Find(1)); err != nil {
		t.Fatal(err)
	}
	ExtendIterations(snap.State, 1)
	var say saying
	res, err = Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid(), Say: say.say})
	if err != nil || res.End != EndStopped || res.Iterations != 1 || snap.State.Iteration != 3 {
		t.Fatalf("run after --extend: %+v, %v", res, err)
	}
	if !strings.Contains(say.String(), "behind the loop's last commit (a best-iteration checkout): checked out main to go on") {
		t.Errorf("said:\n%s", say.String())
	}
	if branch := r.git("symbolic-ref", "--short", "HEAD"); branch != "main" || r.git("rev-parse", "HEAD^") != last {
		t.Errorf("HEAD on %s, parent %s, want main after %s", branch, r.git("rev-parse", "HEAD^"), last)
	}
	if snap.State.RalphGate.WindowStart != 2 {
		t.Errorf("window start = %d, want 2 (a fresh window after the stop)", snap.State.RalphGate.WindowStart)
	}
}

// TestDriveAgentFailsAndChangesNothing: an agent that exits non-zero
// without a change is a no-op iteration whose failure is kept.
func TestDriveAgentFailsAndChangesNothing(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "t", Completion: "false", MaxIterations: intPtr(1)})
	a := newScriptedAgent(t, map[int]string{1: "echo 'cannot do it' >&2; exit 7"}, nil)
	var say saying
	res, err := Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid(), Say: say.say})
	if err != nil {
		t.Fatal(err)
	}
	s := snap.State
	it := s.Find(1)
	if res.End != EndStopped || it == nil || !it.NoOp || it.Agent == nil || it.Agent.ExitCode != 7 || it.Agent.StderrTail != "cannot do it" {
		t.Fatalf("result %+v, iteration %+v", res, it)
	}
	if s.ErrorContext == nil || s.ErrorContext.ExitCode != 7 || s.ErrorContext.Iteration != 1 {
		t.Errorf("error context = %+v", s.ErrorContext)
	}
	if !strings.Contains(say.String(), "the agent exited with status 7 in") || !strings.Contains(say.String(), "usage not reported") ||
		!strings.Contains(say.String(), "the agent changed nothing (a no-op iteration)") {
		t.Errorf("said:\n%s", say.String())
	}
}

// TestDriveCancelledBeforeItStarts: a run interrupted before the agent
// runs ends interrupted, the loop paused without a controller.
func TestDriveCancelledBeforeItStarts(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "t", Completion: "false"})
	r.write("calc.go", fixedAdd) // work left uncommitted
	a := newScriptedAgent(t, map[int]string{0: "true"}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Drive(ctx, e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid()})
	if err != nil || res.End != EndInterrupted || res.Iterations != 0 {
		t.Fatalf("result %+v, %v", res, err)
	}
	if s := r.load(e, snap.State.LoopID).State; s.Status != state.StatusPaused || s.PID != nil || s.Iteration != 0 {
		t.Errorf("saved state %s, pid %v, iteration %d", s.Status, s.PID, s.Iteration)
	}
	if _, err := os.Stat(filepath.Join(a.dir, "prompt-1.md")); err == nil {
		t.Error("the agent ran after the interrupt")
	}
}

// TestDriveRefusesAForgedState: an agent that edits the loop's sealed
// state during its turn stops the run; nothing is written over the files,
// which are the evidence.
func TestDriveRefusesAForgedState(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	e.Store.Key = bytes.Repeat([]byte{5}, 32)
	snap := r.start(e, StartOptions{Task: "t", Completion: "false"})
	statePath := e.Store.StatePath(snap.State.LoopID)
	a := newScriptedAgent(t, map[int]string{
		1: `f="` + statePath + `"; sed 's/"status": "running"/"status": "completed"/' "$f" > "$f.new" && mv "$f.new" "$f"; echo forged`,
	}, nil)
	res, err := Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid()})
	var tampered *state.TamperedError
	if !errors.As(err, &tampered) || tampered.Path != statePath || res.Iterations != 0 {
		t.Fatalf("result %+v, err %v, want the forged state refused", res, err)
	}
	data, _ := os.ReadFile(statePath)
	if !bytes.Contains(data, []byte(`"status": "completed"`)) || !bytes.Contains(data, []byte(`"pid": `+strconv.Itoa(os.Getpid()))) {
		t.Errorf("the forged state.json was written over:\n%s", data)
	}
	if r.git("status", "--porcelain") != "" || r.head() != snap.State.RalphGate.BaselineCommit {
		t.Error("the run committed after the forgery")
	}
}
