package agentrun

import (
	"testing"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// t0 is the tests' fixed clock.
var t0 = time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC)

// fixedCalc is calc.go with the agent's fix.
const fixedCalc = "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n"

// workRepo is an agent's work tree: a repository on branch main that names
// its own committer (the commits under test are made without testgit's
// identity), holding calc.go, committed once.
type workRepo struct {
	t   *testing.T
	dir string
}

func newWorkRepo(t *testing.T) *workRepo {
	t.Helper()
	r := &workRepo{t: t, dir: testgit.InitCommitter(t)}
	r.write("calc.go", "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a - b }\n")
	r.commit("base")
	return r
}

func (r *workRepo) git(args ...string) string {
	r.t.Helper()
	return testgit.Run(r.t, r.dir, args...)
}

func (r *workRepo) write(name, content string) {
	r.t.Helper()
	testgit.Write(r.t, r.dir, name, content)
}

// commit commits everything and returns the commit's hash.
func (r *workRepo) commit(msg string) string {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "--no-verify", "-m", msg)
	return r.head()
}

func (r *workRepo) head() string {
	r.t.Helper()
	return r.git("rev-parse", "HEAD")
}

// claudeLine is a Claude stream-json result line: 15 tokens, $0.01.
const claudeLine = `{"type":"result","total_cost_usd":0.01,"usage":{"input_tokens":10,"output_tokens":5}}`
