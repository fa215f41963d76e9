package hook

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// history is a repository with main: A-B, feature: B-C-D, a rewrite of
// feature: B-E, and an orphan branch O.
type history struct {
	dir              string
	A, B, C, D, E, O string
}

func commit(t *testing.T, dir, file, msg string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, file), []byte(msg+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", msg)
	return git(t, dir, "rev-parse", "HEAD")
}

func newHistory(t *testing.T) *history {
	h := &history{dir: initRepo(t)}
	h.A = commit(t, h.dir, "a.txt", "A")
	h.B = commit(t, h.dir, "b.txt", "B")
	git(t, h.dir, "checkout", "-q", "-b", "feature")
	h.C = commit(t, h.dir, "c.txt", "C")
	h.D = commit(t, h.dir, "d.txt", "D")
	git(t, h.dir, "checkout", "-q", "-b", "rewrite", h.B)
	h.E = commit(t, h.dir, "e.txt", "E")
	git(t, h.dir, "checkout", "-q", "--orphan", "pages")
	h.O = commit(t, h.dir, "o.txt", "O")
	git(t, h.dir, "checkout", "-q", "main")
	return h
}

func (h *history) open(t *testing.T) *gitrepo.Repo {
	t.Helper()
	r, err := gitrepo.Open(h.dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func plan(t *testing.T, h *history, remote string, us ...RefUpdate) []Target {
	t.Helper()
	p := &Planner{Repo: h.open(t), Remote: remote}
	got, err := p.Plan(context.Background(), us)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

type want struct {
	base, head string // "" for a skipped target
	from, skip string // substrings of BaseFrom and Skip
	sameAs     string
}

func check(t *testing.T, got []Target, wants ...want) {
	t.Helper()
	if len(got) != len(wants) {
		t.Fatalf("got %d targets, want %d: %+v", len(got), len(wants), got)
	}
	for i, w := range wants {
		g := got[i]
		if w.skip != "" {
			if !strings.Contains(g.Skip, w.skip) {
				t.Errorf("target %d (%s): Skip = %q, want it to contain %q", i, g.Update.RemoteRef, g.Skip, w.skip)
			}
			continue
		}
		if g.Skip != "" || g.Base != plumbing.NewHash(w.base) || g.Head != plumbing.NewHash(w.head) ||
			!strings.Contains(g.BaseFrom, w.from) || g.SameAs != w.sameAs {
			t.Errorf("target %d (%s) = base %s head %s from %q skip %q sameAs %q; want base %.12s head %.12s from %q sameAs %q",
				i, g.Update.RemoteRef, short(g.Base), short(g.Head), g.BaseFrom, g.Skip, g.SameAs, w.base, w.head, w.from, w.sameAs)
		}
	}
}

func branch(name, local, remote string) RefUpdate {
	return RefUpdate{"refs/heads/" + name, local, "refs/heads/" + name, remote}
}

func TestPlanUpdates(t *testing.T) {
	h := newHistory(t)
	check(t, plan(t, h, "origin",
		branch("feature", h.D, h.C),                        // fast-forward
		branch("feature", h.E, h.D),                        // force push of a rewrite
		branch("feature", h.C, h.D),                        // rewind
		RefUpdate{"(delete)", zero, "refs/heads/old", h.D}, // deletion
		branch("copy", h.D, h.C),                           // the same range as the first
	),
		want{base: h.C, head: h.D, from: "the remote's " + h.C[:12]},
		want{base: h.B, head: h.E, from: "merge-base with the remote's " + h.D[:12] + " (a force push)"},
		want{skip: "rewinds the remote ref"},
		want{skip: "deletes the remote ref"},
		want{base: h.C, head: h.D, from: "the remote's", sameAs: "refs/heads/feature"},
	)
}

func TestPlanNewBranch(t *testing.T) {
	h := newHistory(t)
	// No remote-tracking refs: the local default branch, main.
	check(t, plan(t, h, "origin", branch("feature", h.D, zero)),
		want{base: h.B, head: h.D, from: "merge-base with main"})
	// The remote's default branch wins over the local one.
	git(t, h.dir, "update-ref", "refs/remotes/origin/main", h.A)
	git(t, h.dir, "update-ref", "refs/remotes/origin/trunk", h.C)
	git(t, h.dir, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
	check(t, plan(t, h, "origin", branch("feature", h.D, zero)),
		want{base: h.C, head: h.D, from: "merge-base with origin/HEAD"})
	git(t, h.dir, "symbolic-ref", "--delete", "refs/remotes/origin/HEAD")
	check(t, plan(t, h, "origin", branch("feature", h.D, zero), branch("main", h.B, zero)),
		want{base: h.A, head: h.D, from: "merge-base with origin/main"},
		want{base: h.A, head: h.B, from: "merge-base with origin/main"})
	// A remote given as a URL has no tracking refs: origin's are used (the
	// local default branch).
	check(t, plan(t, h, "file:///srv/repo.git", branch("feature", h.D, zero)),
		want{base: h.A, head: h.D, from: "merge-base with origin/main"})
	// The first push of the default branch itself, an orphan branch.
	git(t, h.dir, "update-ref", "-d", "refs/remotes/origin/main")
	check(t, plan(t, h, "origin", branch("main", h.B, zero), branch("pages", h.O, zero)),
		want{skip: "already on main"},
		want{skip: "shares no history with main"})
	// The remote's commit is not in this repository: as for a new branch.
	check(t, plan(t, h, "origin", branch("feature", h.D, strings.Repeat("9", 40))),
		want{base: h.B, head: h.D, from: "merge-base with main (the remote's 999999999999 is not in this repository's history)"})
}

func TestPlanNoDefaultBranch(t *testing.T) {
	h := newHistory(t)
	git(t, h.dir, "branch", "-q", "-m", "main", "develop")
	check(t, plan(t, h, "origin", branch("feature", h.D, zero)),
		want{skip: "nothing to compare it with (none of origin/HEAD, origin/main, origin/master, main, master exists"})
	// Another remote's tracking ref that shares the history: the newest
	// merge-base.
	git(t, h.dir, "update-ref", "refs/remotes/upstream/develop", h.A)
	git(t, h.dir, "update-ref", "refs/remotes/upstream/next", h.B)
	git(t, h.dir, "update-ref", "refs/remotes/upstream/pages", h.O)
	check(t, plan(t, h, "origin", branch("feature", h.D, zero)),
		want{base: h.B, head: h.D, from: "merge-base with upstream/next"})
}

func TestPlanTags(t *testing.T) {
	h := newHistory(t)
	git(t, h.dir, "update-ref", "refs/remotes/origin/main", h.B)
	git(t, h.dir, "tag", "-a", "-m", "release", "v1", h.A)
	annotated := git(t, h.dir, "rev-parse", "v1")
	tag := func(name, sha string) RefUpdate {
		return RefUpdate{"refs/tags/" + name, sha, "refs/tags/" + name, zero}
	}
	check(t, plan(t, h, "origin",
		tag("v1", annotated), // an annotated tag of a commit the remote has
		tag("v2", h.D),       // a tag of new commits
	),
		want{skip: "tag of a commit already on origin/main"},
		want{base: h.B, head: h.D, from: "merge-base with origin/main"},
	)
	// Pushed with its branch: the branch's range is checked, the tag is not.
	check(t, plan(t, h, "origin", branch("feature", h.D, zero), tag("v2", h.C)),
		want{base: h.B, head: h.D, from: "merge-base with origin/main"},
		want{skip: "tag of a commit already on a branch of this push"})
}
