//go:build unix

package loop

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// TestStart: start tags the baseline iter-000, writes state.json, the
// registry and the hook log, excludes the loop state from git, and runs the
// completion command once at the baseline.
func TestStart(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	var said []string
	e.Progress = func(s string) { said = append(said, s) }
	st, notes, err := Start(context.Background(), e, StartOptions{Task: "Fix the calc package!", Completion: "test -f DONE",
		MaxIterations: intPtr(7), TimeoutMinutes: intPtr(30), Owner: "me", PID: os.Getpid()})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(st.LoopID, "ralph-fix-the-calc-package-") || !state.ValidID(st.LoopID) {
		t.Errorf("loop id = %q", st.LoopID)
	}
	base := r.head()
	if got := r.git("rev-parse", TagName(st.LoopID, 0)+"^{commit}"); got != base {
		t.Errorf("iter-000 tag = %s, want HEAD %s", got, base)
	}
	if st.Status != state.StatusRunning || st.Iteration != 0 || st.RalphGate.BaselineCommit != base || st.RalphGate.LastCommit != base ||
		st.RalphGate.Branch != "main" || st.Configuration.MaxIterations != 7 || st.RalphGate.Settings.MaxIterations != 7 ||
		st.Configuration.TimeoutMinutes == nil || *st.Configuration.TimeoutMinutes != 30 || st.PID == nil || *st.PID != os.Getpid() ||
		st.Owner != "me" || st.Configuration.AutoTest {
		t.Errorf("state after start = %+v", st)
	}
	if c := st.RalphGate.BaselineCompletion; c == nil || c.Passed || c.ExitCode != 1 || c.Iteration != 0 {
		t.Errorf("baseline completion = %+v, want a failed check", c)
	}
	if st.BaselineMetrics.CustomMetrics["test_count_measured"] != false || st.BaselineMetrics.FileCount != 2 {
		t.Errorf("baseline metrics = %+v", st.BaselineMetrics)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "collect: none") {
		t.Errorf("notes = %q", notes)
	}
	if len(said) == 0 || !strings.Contains(strings.Join(said, "\n"), "completion command") {
		t.Errorf("progress = %q", said)
	}
	exclude := r.read(".git/info/exclude")
	if !strings.Contains(exclude, "/.aiwg/ralph/") {
		t.Errorf("info/exclude = %q", exclude)
	}
	if s := r.git("status", "--porcelain"); s != "" {
		t.Errorf("the loop's files show in git status: %q", s)
	}
	loaded := r.load(e, st.LoopID)
	if loaded.State.Task != "Fix the calc package!" || loaded.State.RalphGate.JournalSeq != 1 {
		t.Errorf("loaded state = %+v", loaded.State.RalphGate)
	}
	reg, err := e.Store.ReadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	if len(reg.ActiveLoops) != 1 || reg.ActiveLoops[0].LoopID != st.LoopID || reg.TotalActive != 1 ||
		reg.ActiveLoops[0].StateFile != state.RelStatePath(st.LoopID) || reg.ActiveLoops[0].MaxIterations != 7 {
		t.Errorf("registry = %+v", reg)
	}
	log, err := readLog(e.Store, st.LoopID)
	if err != nil || len(log) != 1 || log[0]["hook_name"] != "loop_start" {
		t.Errorf("hook log = %v, %v", log, err)
	}
	ids, err := e.Store.Loops()
	if err != nil || len(ids) != 1 || ids[0] != st.LoopID {
		t.Errorf("Loops() = %v, %v", ids, err)
	}
}

// TestStartOptions: a completion command that passes at the baseline
// is noted, a slug names the loop, and bad flag values are input errors.
func TestStartOptions(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	st, notes, err := Start(context.Background(), e, StartOptions{Task: "t", Completion: "true", Slug: "my-slug"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(st.LoopID, "ralph-my-slug-") || st.Configuration.MaxIterations != state.Defaults().MaxIterations {
		t.Errorf("loop = %s, max %d", st.LoopID, st.Configuration.MaxIterations)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "already passes at the baseline") {
		t.Errorf("notes = %q", notes)
	}
	for name, opt := range map[string]StartOptions{
		"max iterations 0":   {Task: "t", Completion: "true", MaxIterations: intPtr(0)},
		"negative timeout":   {Task: "t", Completion: "true", TimeoutMinutes: intPtr(-1)},
		"slug of upper case": {Task: "t", Completion: "true", Slug: "Bad Slug"},
	} {
		var in *InputError
		if _, _, err := Start(context.Background(), e, opt); !errors.As(err, &in) {
			t.Errorf("%s: err = %v, want an InputError", name, err)
		}
	}
}

// TestStartRefusesAFifthLoop: MaxConcurrentLoops (4) loops may be
// active at once; starting one more is refused until one of them ends.
func TestStartRefusesAFifthLoop(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	var ids []string
	for i := 0; i < state.MaxConcurrentLoops; i++ {
		st, _, err := Start(context.Background(), e, StartOptions{Task: "loop", Completion: "false"})
		if err != nil {
			t.Fatalf("loop %d: %v", i+1, err)
		}
		ids = append(ids, st.LoopID)
	}
	_, _, err := Start(context.Background(), e, StartOptions{Task: "one too many", Completion: "false"})
	var in *InputError
	if !errors.As(err, &in) || !strings.Contains(err.Error(), "4 loops are active") {
		t.Fatalf("a fifth loop: err = %v, want the limit", err)
	}
	// Aborting one makes room.
	snap := r.load(e, ids[0])
	if err := Transition(e, snap, state.StatusAborted, "abort"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Start(context.Background(), e, StartOptions{Task: "now it fits", Completion: "false"}); err != nil {
		t.Fatalf("after an abort: %v", err)
	}
	reg, err := e.Store.ReadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	if len(reg.ActiveLoops) != 4 || reg.TotalAborted != 1 || len(reg.Finished) != 1 || reg.Finished[0].LoopID != ids[0] {
		t.Errorf("registry = %d active, %d aborted, finished %+v", len(reg.ActiveLoops), reg.TotalAborted, reg.Finished)
	}
}
