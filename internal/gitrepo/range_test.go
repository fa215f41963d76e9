package gitrepo

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// rangeRepo builds
//
//	main:    A - B - B2 ------------ M2 - C
//	              \                 /
//	side:          S1 - S2 --------
//	feature: A - F1 - FM(merges main at B2) - F2
//
// M2 merges side into main; FM merges main into feature.
func rangeRepo(t *testing.T, sameDate bool) (*testRepo, map[string]plumbing.Hash) {
	g := newTestRepo(t)
	g.sameDate = sameDate
	h := map[string]plumbing.Hash{}
	step := func(name, file string) {
		g.write(file, name+"\n")
		h[name] = g.commit(name)
	}
	step("A", "a.txt")
	g.git("branch", "feature")
	step("B", "b.txt")
	g.git("checkout", "-q", "-b", "side")
	step("S1", "s.txt")
	step("S2", "s.txt")
	g.git("checkout", "-q", "main")
	step("B2", "b.txt")
	g.git("checkout", "-q", "feature")
	step("F1", "f.txt")
	h["FM"] = g.merge("main", "FM")
	step("F2", "f.txt")
	g.git("checkout", "-q", "main")
	h["M2"] = g.merge("side", "M2")
	step("C", "c.txt")
	return g, h
}

func TestRange(t *testing.T) {
	for _, sameDate := range []bool{false, true} {
		t.Run(fmt.Sprintf("sameDate=%v", sameDate), func(t *testing.T) {
			g, h := rangeRepo(t, sameDate)
			r := g.open()
			tests := []struct {
				name       string
				base, head string
				want       []string
			}{
				{name: "linear", base: "A", head: "B2", want: []string{"B", "B2"}},
				{name: "one commit", base: "B", head: "B2", want: []string{"B2"}},
				{name: "empty", base: "C", head: "C", want: []string{}},
				{name: "first-parent chain skips merged-in commits", base: "A", head: "F2", want: []string{"F1", "FM", "F2"}},
				{name: "first-parent chain through a merge", base: "B2", head: "C", want: []string{"M2", "C"}},
				{name: "base came in through a second parent", base: "S1", head: "C", want: []string{"B2", "S2", "M2", "C"}},
				{name: "base is the second parent", base: "S2", head: "M2", want: []string{"B2", "M2"}},
				{name: "base on main merged into feature", base: "B", head: "F2", want: []string{"F1", "B2", "FM", "F2"}},
				{name: "zero base is the whole first-parent history", base: "", head: "B2", want: []string{"A", "B", "B2"}},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					got, err := r.Range(h[tt.base], h[tt.head])
					if err != nil {
						t.Fatalf("Range: %v", err)
					}
					if diff := cmp.Diff(tt.want, subjects(got)); diff != "" {
						t.Errorf("Range(%s, %s) (-want +got):\n%s", tt.base, tt.head, diff)
					}
					checkParentsFirst(t, got)
					if tt.base != "" {
						checkAgainstGit(t, g, h[tt.base], h[tt.head], got)
					}
				})
			}
		})
	}
}

// checkAgainstGit compares a range with git rev-list: the first-parent list
// when that is what Range returned, else the full set.
func checkAgainstGit(t *testing.T, g *testRepo, base, head plumbing.Hash, got []Commit) {
	t.Helper()
	spec := base.String() + ".." + head.String()
	var gotList []string
	for _, c := range got {
		gotList = append([]string{c.Hash.String()}, gotList...)
	}
	firstParent := strings.Fields(g.git("rev-list", "--first-parent", spec))
	if cmp.Equal(firstParent, gotList, cmpopts.EquateEmpty()) {
		return
	}
	all := strings.Fields(g.git("rev-list", spec))
	if diff := cmp.Diff(all, gotList, cmpopts.SortSlices(func(a, b string) bool { return a < b }), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Range is neither git's first-parent list nor its full set (-git +got):\n%s", diff)
	}
}

// checkParentsFirst asserts that no commit comes before one of its parents.
func checkParentsFirst(t *testing.T, cs []Commit) {
	t.Helper()
	pos := map[plumbing.Hash]int{}
	for i, c := range cs {
		pos[c.Hash] = i
	}
	for i, c := range cs {
		for _, p := range c.Parents {
			if j, ok := pos[p]; ok && j > i {
				t.Errorf("%s comes before its parent %s", c.Subject, cs[j].Subject)
			}
		}
	}
}

func TestRangeCommitFields(t *testing.T) {
	g, h := rangeRepo(t, false)
	r := g.open()
	got, err := r.Range(h["B2"], h["C"])
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("got %d commits, want 2", len(got))
	}
	m := got[0]
	want := Commit{
		Hash:      h["M2"],
		Parent:    h["B2"],
		Parents:   []plumbing.Hash{h["B2"], h["S2"]},
		Subject:   "M2",
		Author:    "Ralph <ralph@example.com>",
		When:      m.When,
		Committed: m.Committed,
		Tree:      plumbing.NewHash(g.git("rev-parse", h["M2"].String()+"^{tree}")),
	}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("merge commit (-want +got):\n%s", diff)
	}
	if at := g.git("log", "-1", "--format=%at", h["M2"].String()); fmt.Sprint(m.When.Unix()) != at {
		t.Errorf("When = %v (%d), want %s", m.When.UTC().Format(time.RFC3339), m.When.Unix(), at)
	}
	c, err := r.Commit(h["A"])
	if err != nil {
		t.Fatal(err)
	}
	if !c.Parent.IsZero() || len(c.Parents) != 0 {
		t.Errorf("root commit parents = %v, want none", c.Parents)
	}
}

func TestRangeNotAncestor(t *testing.T) {
	g, h := rangeRepo(t, false)
	r := g.open()
	tests := []struct{ base, head string }{
		{base: "F2", head: "C"},
		{base: "C", head: "B"},
		{base: "S2", head: "F2"},
	}
	for _, tt := range tests {
		t.Run(tt.base+".."+tt.head, func(t *testing.T) {
			_, err := r.Range(h[tt.base], h[tt.head])
			if !errors.Is(err, ErrNotAncestor) {
				t.Fatalf("Range error = %v, want ErrNotAncestor", err)
			}
			want := fmt.Sprintf("BASE %s is not an ancestor of HEAD %s", h[tt.base].String()[:12], h[tt.head].String()[:12])
			if err.Error() != want {
				t.Errorf("error = %q, want %q", err, want)
			}
		})
	}
}

// TestRangeClockSkew gives BASE a committer date far in the future of its
// descendants: the first-parent walk gives up early, and the general walk
// must still find the chain.
func TestRangeClockSkew(t *testing.T) {
	g := newTestRepo(t)
	g.write("f", "0\n")
	g.commit("root")
	*g.tick = 100000 // about 70 days on
	g.write("f", "1\n")
	base := g.commit("base")
	*g.tick = 10
	var want []string
	for i := 0; i < 4; i++ {
		g.write("f", fmt.Sprint(i)+"x\n")
		msg := fmt.Sprintf("after %d", i)
		g.commit(msg)
		want = append(want, msg)
	}
	r := g.open()
	got, err := r.Range(base, g.head())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, subjects(got)); diff != "" {
		t.Errorf("Range (-want +got):\n%s", diff)
	}
}

func TestMergeBase(t *testing.T) {
	g, h := rangeRepo(t, false)
	g.git("checkout", "-q", "--orphan", "lonely")
	g.git("rm", "-q", "-r", "-f", ".")
	g.write("l.txt", "l\n")
	h["L"] = g.commit("L")
	// A criss-cross: x1 and y1 each merge the other's first commit.
	g.git("checkout", "-q", "-b", "x", h["C"].String())
	g.write("x.txt", "x\n")
	h["X0"] = g.commit("X0")
	g.git("checkout", "-q", "-b", "y", h["C"].String())
	g.write("y.txt", "y\n")
	h["Y0"] = g.commit("Y0")
	h["Y1"] = g.merge("x", "Y1")
	g.git("checkout", "-q", "x")
	g.git("merge", "-q", "--no-ff", "-m", "X1", h["Y0"].String())
	h["X1"] = g.head()
	r := g.open()

	pairs := [][2]string{
		{"B2", "F1"}, {"F1", "B2"}, {"A", "C"}, {"C", "A"}, {"C", "C"}, {"F2", "C"},
		{"S1", "B2"}, {"S2", "F2"}, {"X1", "Y1"}, {"Y1", "X1"},
	}
	for _, p := range pairs {
		t.Run(p[0]+"+"+p[1], func(t *testing.T) {
			got, err := r.MergeBase(h[p[0]], h[p[1]])
			if err != nil {
				t.Fatalf("MergeBase: %v", err)
			}
			all := g.git("merge-base", "--all", h[p[0]].String(), h[p[1]].String())
			if !strings.Contains(all, got.String()) {
				t.Errorf("MergeBase = %s, not one of git's %q", got, all)
			}
			if !strings.Contains(all, "\n") {
				if want := g.git("merge-base", h[p[0]].String(), h[p[1]].String()); got.String() != want {
					t.Errorf("MergeBase = %s, git says %s", got, want)
				}
			}
		})
	}
	t.Run("unrelated", func(t *testing.T) {
		_, err := r.MergeBase(h["L"], h["C"])
		if !errors.Is(err, ErrNoMergeBase) {
			t.Errorf("error = %v, want ErrNoMergeBase", err)
		}
	})
}

// TestMergeBaseWithOrigin is the default BASE of the CLI: the merge-base of
// HEAD with origin's default branch, after origin moved on.
func TestMergeBaseWithOrigin(t *testing.T) {
	up := newTestRepo(t)
	up.write("f", "1\n")
	up.commit("one")
	bare := filepath.Join(t.TempDir(), "origin.git")
	up.gitIn(t.TempDir(), "", "clone", "-q", "--bare", up.dir, bare)
	agent := up.at(filepath.Join(t.TempDir(), "agent"))
	up.gitIn(t.TempDir(), "", "clone", "-q", bare, agent.dir)
	other := up.at(filepath.Join(t.TempDir(), "other"))
	up.gitIn(t.TempDir(), "", "clone", "-q", bare, other.dir)

	fork := agent.head()
	agent.git("checkout", "-q", "-b", "agent")
	agent.write("g", "agent\n")
	agent.commit("agent 1")
	other.write("h", "other\n")
	other.commit("upstream moved")
	other.git("push", "-q", "origin", "main")
	agent.git("fetch", "-q")

	r := agent.open()
	branch, err := r.DefaultBranch()
	if err != nil {
		t.Fatal(err)
	}
	bh, err := r.Resolve(branch)
	if err != nil {
		t.Fatal(err)
	}
	head, err := r.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.MergeBase(bh, head)
	if err != nil {
		t.Fatal(err)
	}
	if got != fork {
		t.Errorf("MergeBase(%s, HEAD) = %s, want the fork point %s", branch, got, fork)
	}
	cs, err := r.Range(got, head)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"agent 1"}, subjects(cs)); diff != "" {
		t.Errorf("Range (-want +got):\n%s", diff)
	}
}

func TestShallowClone(t *testing.T) {
	up := newTestRepo(t)
	h := map[string]plumbing.Hash{}
	for _, name := range []string{"A", "B", "C", "D"} {
		up.write("f", name+"\n")
		h[name] = up.commit(name)
	}
	up.git("checkout", "-q", "-b", "feature", h["B"].String())
	up.write("g", "feature\n")
	h["F"] = up.commit("F")
	up.git("checkout", "-q", "main")
	dir := filepath.Join(t.TempDir(), "shallow")
	up.gitIn(t.TempDir(), "", "clone", "-q", "--depth", "2", "file://"+up.dir, dir)
	cl := up.at(dir)
	cl.git("fetch", "-q", "--depth", "1", "origin", "feature")
	r := cl.open()
	if !r.IsShallow() {
		t.Fatal("IsShallow() = false for a --depth 2 clone")
	}
	if up.open().IsShallow() {
		t.Error("IsShallow() = true for a full repository")
	}

	got, err := r.Range(h["C"], h["D"])
	if err != nil {
		t.Fatalf("Range within the fetched history: %v", err)
	}
	if diff := cmp.Diff([]string{"D"}, subjects(got)); diff != "" {
		t.Errorf("Range(C, D) (-want +got):\n%s", diff)
	}

	const advice = "fetch more history, e.g. actions/checkout fetch-depth: 0"
	tests := []struct {
		name string
		run  func() error
	}{
		{name: "base missing", run: func() error { _, err := r.Range(h["A"], h["D"]); return err }},
		{name: "zero base", run: func() error { _, err := r.Range(plumbing.ZeroHash, h["D"]); return err }},
		{name: "history ends before base", run: func() error { _, err := r.Range(h["F"], h["D"]); return err }},
		{name: "merge-base beyond the boundary", run: func() error { _, err := r.MergeBase(h["F"], h["D"]); return err }},
		{name: "resolve missing full sha", run: func() error { _, err := r.Resolve(h["A"].String()); return err }},
		{name: "resolve missing short sha", run: func() error { _, err := r.Resolve(h["A"].String()[:10]); return err }},
		{name: "parent past the boundary", run: func() error { _, err := r.Resolve("main~2"); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			if !errors.Is(err, ErrShallow) {
				t.Fatalf("error = %v, want ErrShallow", err)
			}
			if !strings.Contains(err.Error(), advice) {
				t.Errorf("error %q does not give the advice", err)
			}
		})
	}
}

// TestConcurrentUse shares one Repo between goroutines; run with -race.
func TestConcurrentUse(t *testing.T) {
	g, h := rangeRepo(t, false)
	r := g.open()
	want, err := r.Range(h["A"], h["C"])
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		go func() {
			got, err := r.Range(h["A"], h["C"])
			if err == nil && !cmp.Equal(subjects(want), subjects(got)) {
				err = fmt.Errorf("range differs: %v", subjects(got))
			}
			for _, c := range got {
				if err != nil {
					break
				}
				var changes []Change
				if changes, err = r.Diff(c.Parent, c.Hash); err != nil {
					break
				}
				for _, ch := range changes {
					if _, err = r.Blob(ch.To.Hash); err != nil && ch.Action != Delete {
						break
					}
					err = nil
				}
			}
			if err == nil {
				_, err = r.Resolve(h["B"].String()[:8])
			}
			errs <- err
		}()
	}
	for i := 0; i < 4; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
