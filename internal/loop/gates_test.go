//go:build unix

package loop

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// blockedIteration is a loop whose iteration 1 fixed Add and whose iteration 2
// deleted TestSub: blocked, waiting for a human at the returned gate.
func blockedIteration(t *testing.T) (*loopRepo, *Env, *state.Snapshot, *Outcome) {
	t.Helper()
	r := newLoopRepo(t)
	e := r.env()
	// The completion command prints the code, so that each iteration fails
	// it differently (no stuck loop).
	snap := r.start(e, StartOptions{Task: "fix calc", Completion: "cat calc.go calc_test.go; test -f DONE"})
	r.write("calc.go", fixedAdd)
	r.commit("iteration 1: fix Add")
	if out := r.record(e, snap); out.Decision != Continue {
		t.Fatalf("iteration 1: %s", out.Reason)
	}
	r.write("calc_test.go", withoutSub)
	r.commit("iteration 2: delete TestSub")
	out := r.record(e, snap)
	if out.Decision != Blocked {
		t.Fatalf("iteration 2: %s", out.Reason)
	}
	return r, e, snap, out
}

// TestFindGate: the only pending gate, by recovery id or by a
// regression event id of its iteration; anything else is an input error.
func TestFindGate(t *testing.T) {
	t.Parallel()
	_, _, snap, out := blockedIteration(t)
	s := snap.State
	for _, id := range []string{"", out.Gate, s.RegressionEvents[0].EventID} {
		g, err := FindGate(s, id)
		if err != nil || g.RecoveryID != out.Gate {
			t.Errorf("FindGate(%q) = %v, %v", id, g, err)
		}
	}
	var in *InputError
	if _, err := FindGate(s, "nope"); !errors.As(err, &in) || !strings.Contains(err.Error(), `no pending decision "nope"`) {
		t.Errorf("unknown gate: %v", err)
	}
	// Two pending gates must be named.
	two := *s
	two.RecoveryHistory = append(append([]state.Recovery(nil), s.RecoveryHistory...), s.RecoveryHistory[0])
	two.RecoveryHistory[1].RecoveryID = "second"
	if _, err := FindGate(&two, ""); !errors.As(err, &in) || !strings.Contains(err.Error(), "2 decisions pending") {
		t.Errorf("two gates: %v", err)
	}
	if _, err := FindGate(&state.State{LoopID: "x"}, ""); !errors.As(err, &in) || !strings.Contains(err.Error(), "no decision pending") {
		t.Errorf("no gate: %v", err)
	}
}

// TestReject: a reject commits the last good iteration's tree on top
// of HEAD (history kept), and the loop goes on from that commit.
func TestReject(t *testing.T) {
	t.Parallel()
	r, e, snap, out := blockedIteration(t)
	s := snap.State
	id := s.LoopID
	blockedCommit := r.head()
	// Resuming is not how a gate is answered.
	var in *InputError
	if err := Transition(e, snap, state.StatusRunning, "resume"); !errors.As(err, &in) || !strings.Contains(err.Error(), "approve or reject") {
		t.Fatalf("resume at a gate: %v", err)
	}
	// A dirty work tree is refused: reject commits.
	r.write("calc.go", calcSource)
	if _, _, _, err := Reject(context.Background(), e, snap, ""); !errors.As(err, &in) || !strings.Contains(err.Error(), "uncommitted changes") {
		t.Fatalf("reject of a dirty tree: %v", err)
	}
	r.git("checkout", "--", "calc.go")

	e.Decider = "reviewer"
	g, commit, good, err := Reject(context.Background(), e, snap, out.Gate)
	if err != nil {
		t.Fatal(err)
	}
	if good != 1 || g.RecoveryID != out.Gate || g.RestoredIteration == nil || *g.RestoredIteration != 1 || g.RestoreCommit != commit {
		t.Fatalf("reject = gate %+v, commit %s, good %d", g, commit, good)
	}
	if head := r.head(); head != commit {
		t.Errorf("HEAD = %s, want the restore commit %s", head, commit)
	}
	if parent := r.git("rev-parse", "HEAD^"); parent != blockedCommit {
		t.Errorf("restore commit's parent = %s, want the rejected %s", parent, blockedCommit)
	}
	if d := r.git("diff", TagName(id, 1), "HEAD"); d != "" {
		t.Errorf("the restored tree differs from iteration 1:\n%s", d)
	}
	if msg := r.git("log", "-1", "--format=%s"); msg != "ralph-gate: reject iteration 2 of "+id+", restore iteration 1" {
		t.Errorf("restore commit message = %q", msg)
	}
	if want := "reject - by reviewer; restored iteration 1 as " + commit[:7]; g.ProtocolSteps.Escalate.HumanDecision != want {
		t.Errorf("decision = %q, want %q", g.ProtocolSteps.Escalate.HumanDecision, want)
	}
	ev := s.RegressionEvents[0]
	if ev.HumanDecision == nil || *ev.HumanDecision != DecisionReject || ev.DecidedAt == nil || ev.RestoredIteration == nil || *ev.RestoredIteration != 1 || ev.RestoreCommit != commit {
		t.Errorf("event = %+v", ev)
	}
	if s.Status != state.StatusRunning || s.RalphGate.LastCommit != commit || len(s.PendingGates()) != 0 {
		t.Errorf("state %s, last %s, gates %d", s.Status, s.RalphGate.LastCommit, len(s.PendingGates()))
	}
	// The prompt says what was undone and what not to repeat.
	p := Prompt(s)
	for _, want := range []string{"Iteration 2 was blocked (critical test_deletion) and is void", "It was rejected", "the tree of iteration 1 again (commit " + commit[:7] + ")",
		"Do not repeat these (the reject undid them):", "restore the test TestSub (calc_test.go"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
	var sb strings.Builder
	if err := WriteStatus(&sb, s, Sections{Regressions: true}); err != nil {
		t.Fatal(err)
	}
	if got := sb.String(); !strings.Contains(got, "Recovery: escalated, human rejected") || !strings.Contains(got, "Reverted to iteration 1 (commit "+commit[:7]+")") ||
		!strings.Contains(got, "1 deleted tests: calc_test.go: TestSub") {
		t.Errorf("status regressions:\n%s", got)
	}
	// No gate is left to reject.
	if _, _, _, err := Reject(context.Background(), e, snap, ""); !errors.As(err, &in) {
		t.Errorf("second reject: %v", err)
	}
	// The loop records on top of the restore commit.
	r.write("calc.go", strings.Replace(fixedAdd, "return a - b }\n", "return a - b } // Sub\n", 1))
	r.commit("iteration 3")
	if out := r.record(e, snap); out.Decision != Continue || out.Iteration.Iteration != 3 || hasFinding(out.Iteration, string(gate.TestDeletion)) {
		t.Errorf("iteration 3 after the reject: %s (%s), findings %+v", out.Decision, out.Reason, out.Iteration.Findings)
	}
	if hooks := hooksOf(t, e, id); !strings.Contains(hooks, "human_gate") {
		t.Errorf("hooks = %s", hooks)
	}
}

// TestRejectToTheBaseline: with no good iteration before the blocked
// one, reject restores the baseline's tree.
func TestRejectToTheBaseline(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "fix", Completion: "false"})
	r.write("calc_test.go", withoutSub)
	r.commit("delete TestSub")
	if out := r.record(e, snap); out.Decision != Blocked {
		t.Fatalf("record: %s", out.Reason)
	}
	_, commit, good, err := Reject(context.Background(), e, snap, "")
	if err != nil {
		t.Fatal(err)
	}
	if good != 0 || r.read("calc_test.go") != calcTestSource || r.head() != commit {
		t.Errorf("good %d, calc_test.go restored %v", good, r.read("calc_test.go") == calcTestSource)
	}
	if p := Prompt(snap.State); !strings.Contains(p, "the tree of the baseline again") {
		t.Errorf("prompt:\n%s", p)
	}
}

// TestApprove: an approved iteration's findings never block again;
// the iteration stays void.
func TestApprove(t *testing.T) {
	t.Parallel()
	r, e, snap, out := blockedIteration(t)
	s := snap.State
	e.Decider = "lead"
	g, err := Approve(e, snap, "")
	if err != nil {
		t.Fatal(err)
	}
	if g.RecoveryID != out.Gate || g.ProtocolSteps.Escalate.HumanDecision != "approve - by lead" || g.Outcome != "escalated" {
		t.Fatalf("gate = %+v", g.ProtocolSteps.Escalate)
	}
	if s.Status != state.StatusRunning || len(s.RalphGate.Approved) == 0 || !s.Find(2).Void || s.RalphGate.LastCommit != r.head() {
		t.Errorf("state %s, approved %v, iteration 2 void %v", s.Status, s.RalphGate.Approved, s.Find(2).Void)
	}
	if ev := s.RegressionEvents[0]; ev.HumanDecision == nil || *ev.HumanDecision != DecisionApprove {
		t.Errorf("event decision = %v", ev.HumanDecision)
	}
	// The deletion is still in the net change since the baseline, approved.
	r.write("notes.txt", "more\n")
	r.commit("iteration 3")
	out = r.record(e, snap)
	if out.Decision != Continue {
		t.Fatalf("iteration 3: %s", out.Reason)
	}
	for _, f := range out.Iteration.Findings {
		if f.Type == gate.TestDeletion && f.Suppressed == "" {
			t.Errorf("approved finding not suppressed: %+v", f)
		}
	}
	if _, err := Approve(e, snap, ""); err == nil {
		t.Error("a second approve found a gate")
	}
	var sb strings.Builder
	if err := WriteStatus(&sb, s, Sections{Regressions: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), "human approved") {
		t.Errorf("status:\n%s", sb.String())
	}
}

// TestTransitions: pause, resume and abort follow loop-state.yaml's
// allowed transitions; a finished loop moves nowhere.
func TestTransitions(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "fix", Completion: "false"})
	s := snap.State
	var in *InputError
	if err := Transition(e, snap, state.StatusPaused, "pause"); err != nil || s.Status != state.StatusPaused {
		t.Fatalf("pause: %v, %s", err, s.Status)
	}
	r.write("calc.go", fixedAdd)
	r.commit("iteration 1")
	if _, err := Record(context.Background(), e, snap, 0); !errors.As(err, &in) || !strings.Contains(err.Error(), "is paused") {
		t.Errorf("record while paused: %v", err)
	}
	if err := Transition(e, snap, state.StatusPaused, "pause"); !errors.As(err, &in) || !strings.Contains(err.Error(), "allowed from paused: running, aborted") {
		t.Errorf("pause twice: %v", err)
	}
	if err := Transition(e, snap, state.StatusRunning, "resume"); err != nil || s.Status != state.StatusRunning {
		t.Fatalf("resume: %v, %s", err, s.Status)
	}
	if err := Transition(e, snap, state.StatusAborted, "abort"); err != nil {
		t.Fatal(err)
	}
	if s.Status != state.StatusAborted || s.CompletedAt == nil || s.DetectionEnabled || s.RalphGate.StopReason != "aborted by a human" {
		t.Errorf("after abort: %s %v %v %q", s.Status, s.CompletedAt, s.DetectionEnabled, s.RalphGate.StopReason)
	}
	if err := Transition(e, snap, state.StatusRunning, "resume"); !errors.As(err, &in) || !strings.Contains(err.Error(), "none: it is finished") {
		t.Errorf("resume an aborted loop: %v", err)
	}
	if got := hooksOf(t, e, s.LoopID); got != "loop_start loop_pause loop_resume loop_abort" {
		t.Errorf("hooks = %s", got)
	}
	reloaded := r.load(e, s.LoopID).State
	if reloaded.Status != state.StatusAborted {
		t.Errorf("saved status = %s", reloaded.Status)
	}
}

// TestAbortAtAGate: an abort answers the pending gate too.
func TestAbortAtAGate(t *testing.T) {
	t.Parallel()
	_, e, snap, _ := blockedIteration(t)
	e.Decider = "ops"
	if err := Transition(e, snap, state.StatusAborted, "abort"); err != nil {
		t.Fatal(err)
	}
	g := snap.State.RecoveryHistory[0]
	if g.ProtocolSteps.Escalate.HumanDecision != "abort - by ops" || g.Outcome != "aborted" || len(snap.State.PendingGates()) != 0 {
		t.Errorf("gate after abort = %+v, outcome %s", g.ProtocolSteps.Escalate, g.Outcome)
	}
	if ev := snap.State.RegressionEvents[0]; ev.HumanDecision == nil || *ev.HumanDecision != DecisionAbort {
		t.Errorf("event decision = %v", ev.HumanDecision)
	}
	if got := snap.State.RalphGate.StopReason; got != "aborted by ops" {
		t.Errorf("stop_reason = %q, want the decider named", got)
	}
}

// TestCrashedLoop: a running loop whose controller died shows as
// crashed; it can be aborted, not paused, and a record takes it over.
func TestCrashedLoop(t *testing.T) {
	t.Parallel()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	deadPID := dead.Process.Pid
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "fix", Completion: "false", PID: deadPID})
	s := snap.State
	if EffectiveStatus(s) != state.StatusCrashed {
		t.Fatalf("effective status = %s", EffectiveStatus(s))
	}
	var sb strings.Builder
	if err := WriteStatus(&sb, s, Sections{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), "crashed, iteration 0 of 10") || !strings.Contains(sb.String(), "is gone") {
		t.Errorf("status of a crashed loop:\n%s", sb.String())
	}
	var in *InputError
	if err := Transition(e, snap, state.StatusPaused, "pause"); !errors.As(err, &in) || !strings.Contains(err.Error(), "it is crashed") {
		t.Errorf("pause a crashed loop: %v", err)
	}
	// A record by a new controller takes the loop over.
	r.write("calc.go", fixedAdd)
	r.commit("iteration 1")
	if _, err := Record(context.Background(), e, snap, 4242); err != nil {
		t.Fatal(err)
	}
	if s.PID == nil || *s.PID != 4242 {
		t.Errorf("pid after takeover = %v", s.PID)
	}
	// A crashed loop can still be aborted.
	dp := deadPID
	s.PID = &dp
	if err := Transition(e, snap, state.StatusAborted, "abort"); err != nil || s.Status != state.StatusAborted {
		t.Errorf("abort a crashed loop: %v, %s", err, s.Status)
	}
}

// TestCheckout: checkout of an iteration detaches HEAD at the commit
// the state recorded, putting back a tag moved or deleted since; a dirty
// tree is refused and left as it is.
func TestCheckout(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "fix", Completion: "false"})
	base := r.head()
	r.write("calc.go", fixedAdd)
	c1 := r.commit("iteration 1")
	r.record(e, snap)
	r.write("x.txt", "x\n")
	c2 := r.commit("iteration 2")
	r.record(e, snap)
	one, two := snap.State.Find(1), snap.State.Find(2)
	ctx := context.Background()
	r.write("calc.go", "dirty\n")
	var in *InputError
	if _, err := Checkout(ctx, r.dir, one); !errors.As(err, &in) || !strings.Contains(err.Error(), "M calc.go") {
		t.Fatalf("checkout of a dirty tree: %v", err)
	}
	if r.read("calc.go") != "dirty\n" || r.head() != c2 {
		t.Error("the refused checkout changed the work tree")
	}
	r.git("checkout", "--", "calc.go")
	note, err := Checkout(ctx, r.dir, one)
	if err != nil || note != "" || r.head() != c1 || r.read("calc.go") != fixedAdd {
		t.Fatalf("checkout of iteration 1: note %q, %v, HEAD %s want %s", note, err, r.head(), c1)
	}
	if b := r.git("rev-parse", "--abbrev-ref", "HEAD"); b != "HEAD" {
		t.Errorf("HEAD is on %s, want detached", b)
	}
	// A tag the agent moved is put back where the iteration was.
	r.git("tag", "-f", two.Tag, base)
	note, err = Checkout(ctx, r.dir, two)
	if err != nil || r.head() != c2 || r.git("rev-parse", two.Tag+"^{commit}") != c2 ||
		note != "tag "+two.Tag+" pointed at "+base[:7]+", not at iteration 2's recorded commit "+c2[:7]+": it was changed outside ralph-gate and is put back" {
		t.Errorf("moved tag: note %q, %v, HEAD %s", note, err, r.head())
	}
	r.git("tag", "-d", one.Tag)
	if note, err := Checkout(ctx, r.dir, one); err != nil || r.head() != c1 || !strings.Contains(note, one.Tag+" was missing") {
		t.Errorf("deleted tag: note %q, %v", note, err)
	}
	bogus := &state.Iteration{Iteration: 9, Tag: "ralph/x/iter-009", Commit: strings.Repeat("1", 40)}
	if _, err := Checkout(ctx, r.dir, bogus); err == nil || !strings.Contains(err.Error(), "git tag -f") {
		t.Errorf("checkout of a commit that does not exist: %v", err)
	}
	if _, err := Dirty(ctx, t.TempDir()); err == nil {
		t.Error("Dirty outside a repository: no error")
	}
}

// TestRejectWithoutIdentity: with no git identity configured anywhere
// (a fresh CI machine), Reject commits the restored tree as ralph-gate, as
// CommitWork does, so `ralph-gate run` can reject a block there.
func TestRejectWithoutIdentity(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, v := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	r, e, snap, _ := blockedIteration(t)
	r.git("config", "--unset", "user.name")
	r.git("config", "--unset", "user.email")
	_, commit, good, err := Reject(context.Background(), e, snap, "")
	if err != nil {
		t.Fatalf("reject without a git identity: %v", err)
	}
	if good != 1 || r.head() != commit {
		t.Errorf("restored %d as %s, HEAD %s", good, commit, r.head())
	}
}
