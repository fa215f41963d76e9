package loop

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/aiwgschema"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// limitPatterns returns the loop's LP-020 entries.
func limitPatterns(st *state.State) []state.Pattern {
	var out []state.Pattern
	for _, p := range st.DetectedPatterns {
		if p.PatternID == "LP-020" {
			out = append(out, p)
		}
	}
	return out
}

// checkLimitExceeded checks that the loop recorded AIWG's LP-020 once, for
// iteration n, that state.json still validates against AIWG's schemas, and
// that status and analytics say it.
func checkLimitExceeded(t *testing.T, e *Env, st *state.State, n int) {
	t.Helper()
	ps := limitPatterns(st)
	if len(ps) != 1 {
		t.Fatalf("LP-020 entries %+v, want one", ps)
	}
	if p := ps[0]; p.PatternName != "Iteration Limit Exceeded" || p.Iteration != n || p.Severity != "high" || p.FalsePositive || p.FindingID != "" || p.Timestamp.IsZero() {
		t.Errorf("LP-020 entry %+v, want Iteration Limit Exceeded at iteration %d, high", p, n)
	}
	data, err := os.ReadFile(e.Store.StatePath(st.LoopID))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"pattern_id": "LP-020"`) && !strings.Contains(string(data), `"pattern_id":"LP-020"`) {
		t.Error("state.json lacks the LP-020 entry")
	}
	if err := aiwgschema.ValidateState(data); err != nil {
		t.Errorf("state.json does not validate against AIWG's schemas: %v", err)
	}
	want := "LP-020 Iteration Limit Exceeded (iteration " + strconv.Itoa(n) + "): the iteration limit was reached without the completion check passing"
	var status strings.Builder
	if err := WriteStatus(&status, st, Sections{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(status.String(), "Detected: "+want+"\n") {
		t.Errorf("status lacks %q:\n%s", want, status.String())
	}
	var analytics strings.Builder
	if err := WriteAnalyticsText(&analytics, st, BuildAnalytics(st)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(analytics.String(), "\n  "+want+"\n") {
		t.Errorf("analytics lacks %q:\n%s", want, analytics.String())
	}
}

// TestLimitExceededRecorded: a driven loop that reaches max_iterations
// without its completion check passing records LP-020, Iteration Limit
// Exceeded, in detected_patterns, and says so in status and analytics; a
// loop extended past it is no longer shown as stopped there.
func TestLimitExceededRecorded(t *testing.T) {
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
	if err != nil || res.End != EndStopped || res.Reason != "max iterations reached (2)" {
		t.Fatalf("run: %+v, %v", res, err)
	}
	checkLimitExceeded(t, e, snap.State, 2)
	// Reloaded from disk, as status reads it.
	checkLimitExceeded(t, e, r.load(e, snap.State.LoopID).State, 2)

	// Extended, the loop goes on and stops at its new limit: one more
	// entry, and only the new one is the current stop.
	ExtendIterations(snap.State, 1)
	if res, err = Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid()}); err != nil || res.End != EndStopped {
		t.Fatalf("run after --extend: %+v, %v", res, err)
	}
	if ps := limitPatterns(snap.State); len(ps) != 2 || ps[0].Iteration != 2 || ps[1].Iteration != 3 {
		t.Errorf("LP-020 entries after --extend: %+v, want iterations 2 and 3", ps)
	}
	var status strings.Builder
	if err := WriteStatus(&status, snap.State, Sections{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(status.String(), "Detected: LP-020 Iteration Limit Exceeded (iteration 3)") || strings.Contains(status.String(), "(iteration 2)") {
		t.Errorf("status after --extend:\n%s", status.String())
	}
}

// TestLimitNotExceededOnCompletion: a loop whose completion check passes on
// its last allowed iteration completed; it did not exceed its limit.
func TestLimitNotExceededOnCompletion(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "t", Completion: "test -f DONE", MaxIterations: intPtr(2)})
	a := newScriptedAgent(t, map[int]string{0: "true", 1: "echo a > progress.txt", 2: "echo done > DONE"}, nil)
	res, err := Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid()})
	s := snap.State
	if err != nil || res.End != EndCompleted || s.Status != state.StatusCompleted || s.Iteration != 2 {
		t.Fatalf("run: %+v, %v; status %s at iteration %d", res, err, s.Status, s.Iteration)
	}
	if ps := limitPatterns(s); len(ps) != 0 {
		t.Errorf("a loop completed on its last iteration has LP-020: %+v", ps)
	}
	var status strings.Builder
	if err := WriteStatus(&status, s, Sections{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(status.String(), "LP-020") {
		t.Errorf("status:\n%s", status.String())
	}
}

// TestLimitExceededAfterApproval: the last allowed iteration was blocked and
// a human approved it: the next run ends the loop at its limit, and records
// LP-020 there.
func TestLimitExceededAfterApproval(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "fix", Completion: "test -f DONE", MaxIterations: intPtr(1)})
	a := newScriptedAgent(t, map[int]string{1: `cp "$A/cheat_test.go" calc_test.go`}, map[string]string{"cheat_test.go": withoutSub})
	res, err := Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid(), OnBlock: "stop"})
	if err != nil || res.End != EndHuman {
		t.Fatalf("run: %+v, %v", res, err)
	}
	if ps := limitPatterns(snap.State); len(ps) != 0 {
		t.Errorf("LP-020 while a human decides: %+v", ps)
	}
	if _, err := Approve(e, snap, ""); err != nil {
		t.Fatal(err)
	}
	res, err = Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid()})
	if err != nil || res.End != EndStopped || res.Reason != "reached max_iterations (1)" || res.Iterations != 0 {
		t.Fatalf("run after the approval: %+v, %v", res, err)
	}
	checkLimitExceeded(t, e, snap.State, 1)
}
