package loop

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// The tests drive the loop the way the command line does:
// real repositories made with the git binary in t.TempDir(), real `sh`
// completion commands and agents, and collectors off (Env.Collect "none")
// unless a test is about measuring.

// calcSource is a Go package whose Add is wrong; calcTestSource holds two tests.
const calcSource = `package calc

// Add adds.
func Add(a, b int) int { return a - b }

// Sub subtracts.
func Sub(a, b int) int { return a - b }
`

const calcTestSource = `package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestSub(t *testing.T) {
	if got := Sub(5, 3); got != 2 {
		t.Errorf("Sub(5, 3) = %d, want 2", got)
	}
}
`

// loopRepo is a git repository in a temporary directory.
type loopRepo struct {
	t   *testing.T
	dir string
}

// newLoopRepo makes a repository on branch main holding the calc module,
// committed once. The repository's own config names a committer, so that
// the loop's own commits (reject) work without a global git config.
func newLoopRepo(t *testing.T) *loopRepo {
	t.Helper()
	r := &loopRepo{t: t, dir: testgit.InitCommitter(t)}
	r.write("go.mod", "module example.com/calc\n\ngo 1.26\n")
	r.write("calc.go", calcSource)
	r.write("calc_test.go", calcTestSource)
	r.commit("base")
	return r
}

func (r *loopRepo) git(args ...string) string {
	r.t.Helper()
	return testgit.Run(r.t, r.dir, args...)
}

func (r *loopRepo) write(name, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *loopRepo) read(name string) string {
	r.t.Helper()
	data, err := os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(name)))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(data)
}

// commit commits everything and returns the commit's hash.
func (r *loopRepo) commit(msg string) string {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "--no-verify", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

func (r *loopRepo) head() string {
	r.t.Helper()
	return r.git("rev-parse", "HEAD")
}

// env opens the repository afresh, as each command of the command line does.
func (r *loopRepo) env() *Env {
	r.t.Helper()
	repo, err := gitrepo.Open(r.dir)
	if err != nil {
		r.t.Fatal(err)
	}
	return &Env{Repo: repo, Store: state.NewStore(repo.Root()), Collect: "none", Now: fixedClock()}
}

// fixedClock is a clock that moves one second per reading, from a fixed time:
// timestamps differ and never depend on the machine's speed.
func fixedClock() func() time.Time {
	t := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	return func() time.Time {
		t = t.Add(time.Second)
		return t
	}
}

// start starts a loop at HEAD with the completion command and returns its
// snapshot, loaded as record loads it.
func (r *loopRepo) start(e *Env, opt StartOptions) *state.Snapshot {
	r.t.Helper()
	st, _, err := Start(context.Background(), e, opt)
	if err != nil {
		r.t.Fatalf("start: %v", err)
	}
	return r.load(e, st.LoopID)
}

func (r *loopRepo) load(e *Env, id string) *state.Snapshot {
	r.t.Helper()
	snap, err := e.Store.Load(id)
	if err != nil {
		r.t.Fatalf("load %s: %v", id, err)
	}
	return snap
}

// record records HEAD and fails the test on an error.
func (r *loopRepo) record(e *Env, snap *state.Snapshot) *Outcome {
	r.t.Helper()
	out, err := Record(context.Background(), e, snap, 0)
	if err != nil {
		r.t.Fatalf("record: %v", err)
	}
	return out
}

// fixedAdd is calc.go with Add fixed.
var fixedAdd = strings.Replace(calcSource, "return a - b }\n\n// Sub", "return a + b }\n\n// Sub", 1)

// withoutSub is calc_test.go with TestSub deleted.
var withoutSub = strings.Split(calcTestSource, "func TestSub")[0]

// hasFinding reports whether an iteration has a finding of the type.
func hasFinding(it *state.Iteration, typ string) bool {
	for _, f := range it.Findings {
		if string(f.Type) == typ {
			return true
		}
	}
	return false
}

// hooksOf is a loop's hook log as its hook names, in order.
func hooksOf(t *testing.T, e *Env, id string) string {
	t.Helper()
	log, err := readLog(e.Store, id)
	if err != nil {
		t.Fatal(err)
	}
	var hooks []string
	for _, l := range log {
		hooks = append(hooks, fmt.Sprint(l["hook_name"]))
	}
	return strings.Join(hooks, " ")
}

func intPtr(v int) *int { return &v }

var fixedT0 = time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC)
