package gitrepo

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// testRepo drives the real git CLI in a temporary directory, with fixed
// identities and dates that advance one minute per commit, so hashes are the
// same on every run.
type testRepo struct {
	t    testing.TB
	dir  string
	home string
	tick *int // shared by clones, so dates keep increasing
	// sameDate freezes every commit at one date, to test walks without date
	// order.
	sameDate bool
}

func newTestRepo(t testing.TB) *testRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	g := &testRepo{t: t, dir: t.TempDir(), home: t.TempDir(), tick: new(int)}
	g.git("init", "-q")
	return g
}

// at returns a testRepo for another directory that shares g's clock.
func (g *testRepo) at(dir string) *testRepo {
	c := *g
	c.dir = dir
	return &c
}

// env is what g's git runs with beyond testgit.Env: its own home, its
// identity, and the date of its clock.
func (g *testRepo) env() []string {
	date := fmt.Sprintf("%d +0000", 1700000000+60**g.tick)
	if g.sameDate {
		date = "1700000000 +0000"
	}
	return []string{
		"HOME=" + g.home,
		"XDG_CONFIG_HOME=" + g.home,
		"GIT_AUTHOR_NAME=Ralph", "GIT_AUTHOR_EMAIL=ralph@example.com",
		"GIT_COMMITTER_NAME=Ralph", "GIT_COMMITTER_EMAIL=ralph@example.com",
		"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date,
	}
}

// git runs git in the repository and returns its trimmed output.
func (g *testRepo) git(args ...string) string {
	g.t.Helper()
	return g.gitIn(g.dir, "", args...)
}

func (g *testRepo) gitIn(dir, stdin string, args ...string) string {
	g.t.Helper()
	full := append([]string{"-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always",
		"-c", "core.autocrlf=false", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)
	return testgit.RunEnv(g.t, dir, stdin, g.env(), full...)
}

// write creates or replaces a file in the work tree.
func (g *testRepo) write(name, content string) {
	g.t.Helper()
	testgit.Write(g.t, g.dir, name, content)
}

// mv renames a file or directory in the work tree.
func (g *testRepo) mv(from, to string) {
	g.t.Helper()
	dst := filepath.Join(g.dir, filepath.FromSlash(to))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		g.t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(g.dir, filepath.FromSlash(from)), dst); err != nil {
		g.t.Fatal(err)
	}
}

// commit stages everything and commits it.
func (g *testRepo) commit(msg string) plumbing.Hash {
	g.t.Helper()
	*g.tick++
	g.git("add", "-A")
	g.git("commit", "-q", "--allow-empty", "-m", msg)
	return g.head()
}

// merge merges a branch into the current one with a merge commit.
func (g *testRepo) merge(branch, msg string) plumbing.Hash {
	g.t.Helper()
	*g.tick++
	g.git("merge", "-q", "--no-ff", "--allow-unrelated-histories", "-m", msg, branch)
	return g.head()
}

func (g *testRepo) head() plumbing.Hash { return g.rev("HEAD") }

func (g *testRepo) rev(rev string) plumbing.Hash {
	g.t.Helper()
	return plumbing.NewHash(g.git("rev-parse", "--verify", "-q", rev+"^{commit}"))
}

// open opens the repository with this package.
func (g *testRepo) open() *Repo {
	g.t.Helper()
	r, err := Open(g.dir)
	if err != nil {
		g.t.Fatalf("Open(%s): %v", g.dir, err)
	}
	g.t.Cleanup(func() { _ = r.Close() })
	return r
}

// fastImport feeds a git fast-import stream, for repositories too large to
// build commit by commit.
func (g *testRepo) fastImport(stream string) {
	g.t.Helper()
	g.gitIn(g.dir, stream, "fast-import", "--quiet")
}

// subjects lists the subjects of commits, for readable comparisons.
func subjects(cs []Commit) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.Subject)
	}
	return out
}
