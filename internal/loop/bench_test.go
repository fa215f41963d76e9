package loop

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/loop/agentrun"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// BenchmarkRecordAt200 measures record's own overhead at iteration 200 of a
// loop: opening the repository, locking and loading the state (200
// iterations of history), analyzing the iteration against the previous one
// and the baseline, scoring, tagging, journaling and saving. Collectors are
// off and the completion command is `false`, whose run is excluded from the
// overhead exactly as record excludes it. Reported: overhead-ms (record's
// own figure, the one written to persistence_metrics) and p95-overhead-ms.
//
//	go test -run '^$' -bench RecordAt200 -benchtime 50x ./internal/loop/
func BenchmarkRecordAt200(b *testing.B) {
	dir, key := benchRepo(b)
	ctx := context.Background()
	env := func() *Env {
		repo, err := gitrepo.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		store := state.NewStore(repo.Root())
		store.Key = key // sealed, as the command line writes loops
		return &Env{Repo: repo, Store: store, Collect: "none"}
	}
	st, _, err := Start(ctx, env(), StartOptions{Task: "bench", Completion: "false", MaxIterations: intp(100000)})
	if err != nil {
		b.Fatal(err)
	}
	// Stopping criteria would end the loop early: the benchmark wants a long
	// one.
	e := env()
	snap, err := e.Store.Load(st.LoopID)
	if err != nil {
		b.Fatal(err)
	}
	snap.State.RalphGate.Settings.MinIterations = 1 << 30
	snap.State.RalphGate.Settings.StuckAfter = 1 << 30
	snap.State.Progress.CompletionChecks = nil
	if err := e.Store.Save(snap, "bench", time.Now()); err != nil {
		b.Fatal(err)
	}
	n := 0
	iterate := func() time.Duration {
		n++
		write(b, dir, fmt.Sprintf("pkg%d/f.go", n%20), fmt.Sprintf("package pkg%d\n\n// V is the value.\nconst V = %d\n", n%20, n))
		gitRun(b, dir, "add", "-A")
		gitRun(b, dir, "commit", "-qm", fmt.Sprintf("iteration %d", n))
		t0 := time.Now()
		e := env()
		lock, err := e.Store.Lock(st.LoopID, "record", time.Second)
		if err != nil {
			b.Fatal(err)
		}
		defer lock.Unlock()
		snap, err := e.Store.Load(st.LoopID)
		if err != nil {
			b.Fatal(err)
		}
		pre := time.Since(t0)
		out, err := Record(ctx, e, snap, 0)
		if err != nil {
			b.Fatal(err)
		}
		if out.Decision != Continue {
			b.Fatalf("iteration %d: %s", n, out.Reason)
		}
		// Record's own figure starts after the load; add opening, locking
		// and loading.
		return pre + out.Overhead
	}
	for n < 200 {
		iterate()
	}
	var all []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		all = append(all, float64(iterate().Microseconds())/1000)
	}
	b.StopTimer()
	sort.Float64s(all)
	sum := 0.0
	for _, v := range all {
		sum += v
	}
	b.ReportMetric(sum/float64(len(all)), "overhead-ms")
	b.ReportMetric(all[(len(all)*95+99)/100-1], "p95-overhead-ms")
}

func intp(v int) *int { return &v }

// benchRepo is a one-package Go module with a passing test, committed, and
// a seal key of its own.
func benchRepo(b *testing.B) (string, []byte) {
	b.Helper()
	dir := b.TempDir()
	gitRun(b, dir, "init", "-q", "-b", "main")
	write(b, dir, "go.mod", "module example.com/bench\n\ngo 1.26\n")
	write(b, dir, "calc.go", "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n")
	write(b, dir, "calc_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(\"Add\")\n\t}\n}\n")
	gitRun(b, dir, "add", "-A")
	gitRun(b, dir, "commit", "-qm", "base")
	key, err := state.LoadSealKey(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	return dir, key
}

func gitRun(tb testing.TB, dir string, args ...string) {
	tb.Helper()
	testgit.Run(tb, dir, args...)
}

func write(tb testing.TB, dir, name, content string) {
	tb.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkRunIteration measures `ralph-gate run`'s own time per iteration
// beyond the agent's: writing the prompt, starting the agent, committing
// what it left, and recording the iteration (analysis, scoring, tagging,
// sealing, journaling) with collectors off. The completion command (`false`,
// in a clean worktree made and removed each time) is counted in, so the
// figure is an upper bound of run's overhead. The agent is a shell command
// that changes one file; its own run time, as RunAgent measured it, is
// subtracted. Reported: overhead-ms per iteration (mean), p95-overhead-ms,
// completion-ms (the completion's cost measured on its own) and
// overhead-without-completion-ms.
//
//	go test -run '^$' -bench RunIteration -benchtime 30x ./internal/loop/
func BenchmarkRunIteration(b *testing.B) {
	dir, key := benchRepo(b)
	ctx := context.Background()
	repo, err := gitrepo.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	store := state.NewStore(repo.Root())
	store.Key = key
	e := &Env{Repo: repo, Store: store, Collect: "none"}
	st, _, err := Start(ctx, e, StartOptions{Task: "bench", Completion: "false", MaxIterations: intp(b.N)})
	if err != nil {
		b.Fatal(err)
	}
	snap, err := store.Load(st.LoopID)
	if err != nil {
		b.Fatal(err)
	}
	snap.State.RalphGate.Settings.MinIterations = 1 << 30
	snap.State.RalphGate.Settings.StuckAfter = 1 << 30
	// The completion's cost (a worktree made and removed, `false` run in
	// it), measured on its own, is reported and subtracted for the overhead
	// without it.
	head, err := repo.Resolve("HEAD")
	if err != nil {
		b.Fatal(err)
	}
	var completion float64
	for i := 0; i < 10; i++ {
		t0 := time.Now()
		agentrun.RunCompletionAt(ctx, dir, head, "false", time.Minute, 1, time.Now())
		completion += float64(time.Since(t0).Microseconds()) / 1000 / 10
	}
	lock, err := store.Lock(st.LoopID, "run", 0)
	if err != nil {
		b.Fatal(err)
	}
	defer lock.Unlock()
	var per []float64
	last := time.Now()
	say := func(format string, args ...any) {
		// One "quality" line per recorded iteration closes its timing.
		if len(format) > 14 && format[:14] == "iteration %d: " && len(args) > 1 {
			if _, ok := args[1].(float64); ok {
				per = append(per, float64(time.Since(last).Microseconds())/1000)
				last = time.Now()
			}
		}
	}
	b.ResetTimer()
	res, err := Drive(ctx, e, snap, DriveOptions{Agent: `echo "$RALPH_GATE_ITERATION" > progress.txt`, OnBlock: "stop", PID: os.Getpid(), Say: say})
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	if res.Iterations != b.N || len(per) != b.N {
		b.Fatalf("run recorded %d iterations (%d timed), want %d: %s", res.Iterations, len(per), b.N, res.Reason)
	}
	for i, it := range snap.State.IterationHistory {
		per[i] -= float64(it.Agent.DurationMS)
	}
	sort.Float64s(per)
	sum := 0.0
	for _, v := range per {
		sum += v
	}
	b.ReportMetric(sum/float64(len(per)), "overhead-ms")
	b.ReportMetric(per[(len(per)*95+99)/100-1], "p95-overhead-ms")
	b.ReportMetric(completion, "completion-ms")
	b.ReportMetric(sum/float64(len(per))-completion, "overhead-without-completion-ms")
}
