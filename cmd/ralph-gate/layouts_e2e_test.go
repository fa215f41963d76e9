//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every repository layout git itself reads, made by real git, read by the
// built binary: alternates (clone --shared, --reference), linked worktrees,
// partial and shallow clones, SHA-256, a multi-pack-index with a
// commit-graph, packed refs. Each is read correctly or exits 2 with one line
// that says what to do.

// layoutOrigin is a Go module whose last commit deletes TestSub: analyze of
// base..head reports a critical test_deletion (exit 1). It serves partial
// clones (uploadpack.allowFilter).
func layoutOrigin(t *testing.T) (r *repo, base, head string) {
	t.Helper()
	r = goModule(t)
	base = r.git("rev-parse", "HEAD")
	r.write("calc_test.go", calcTestNoSub)
	head = r.commit("agent: drop TestSub")
	r.git("config", "uploadpack.allowFilter", "true")
	return r, base, head
}

// cloneInto runs git clone with args (flags, then the source) into a new
// directory and returns it.
func cloneInto(t *testing.T, args ...string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "clone")
	gitIn(t, t.TempDir(), append(append([]string{"clone", "-q"}, args...), dst)...)
	return dst
}

// alternatesOf reads a repository's objects/info/alternates ("" when absent).
func alternatesOf(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".git", "objects", "info", "alternates"))
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// objectsOf lists the objects a repository has here (its own and its
// alternates'), without fetching any.
func objectsOf(t *testing.T, dir string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, l := range strings.Split(gitIn(t, dir, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)"), "\n") {
		out[l] = true
	}
	return out
}

// wantDeletion checks an analyze or compare report of base..head: blocked
// by the net, critical deletion of TestSub in calc_test.go.
func wantDeletion(t *testing.T, res result, base, head string) {
	t.Helper()
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
	rep := parseReport(t, res.stdout)
	if rep.Base != base || rep.Head != head || rep.Verdict != "block" {
		t.Errorf("base %s head %s verdict %s; want %s..%s blocked", rep.Base, rep.Head, rep.Verdict, base, head)
	}
	for _, f := range rep.Findings {
		if f.Type == "test_deletion" && f.Severity == "critical" && f.Test == "TestSub" && f.File == "calc_test.go" && f.Net {
			return
		}
	}
	t.Errorf("no critical test_deletion of TestSub: %+v", rep.Findings)
}

// wantInputError checks an exit 2 with one line on stderr holding each of
// wants, and no stack trace.
func wantInputError(t *testing.T, res result, wants ...string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(res.stderr), "\n")
	if res.code != 2 || len(lines) != 1 {
		t.Fatalf("exit %d, stderr %q; want exit 2 and one line", res.code, res.stderr)
	}
	for _, w := range wants {
		if !strings.Contains(lines[0], w) {
			t.Errorf("stderr %q does not say %q", lines[0], w)
		}
	}
	if strings.Contains(res.stderr, "panic") || strings.Contains(res.stderr, "goroutine") {
		t.Errorf("stack trace on stderr: %s", res.stderr)
	}
}

func TestLayoutsAnalyze(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// make builds the layout from the origin and returns the directory
		// to run in, and the revisions to name (the SHAs when empty).
		make func(t *testing.T, origin *repo, base, head string) (dir, baseRev, headRev string)
		// after checks the layout once analyzed (nil: nothing more).
		after func(t *testing.T, dir, base string)
	}{
		{name: "clone --shared", make: func(t *testing.T, o *repo, base, head string) (string, string, string) {
			dir := cloneInto(t, "--shared", o.dir)
			if alternatesOf(t, dir) == "" {
				t.Fatal("git clone --shared wrote no alternates")
			}
			return dir, "", ""
		}},
		{name: "clone --reference", make: func(t *testing.T, o *repo, base, head string) (string, string, string) {
			// Over file:// as from a server: a local path would hard-link
			// the objects instead of borrowing them.
			dir := cloneInto(t, "--reference", o.dir, "file://"+o.dir)
			if alternatesOf(t, dir) == "" {
				t.Fatal("git clone --reference wrote no alternates")
			}
			return dir, "", ""
		}},
		{name: "clone --reference --dissociate", make: func(t *testing.T, o *repo, base, head string) (string, string, string) {
			dir := cloneInto(t, "--reference", o.dir, "--dissociate", "file://"+o.dir)
			if a := alternatesOf(t, dir); a != "" {
				t.Fatalf("--dissociate left alternates: %s", a)
			}
			return dir, "", ""
		}},
		{name: "alternates with a relative path", make: func(t *testing.T, o *repo, base, head string) (string, string, string) {
			dir := cloneInto(t, "--shared", o.dir)
			objects := filepath.Join(dir, ".git", "objects")
			rel, err := filepath.Rel(objects, filepath.Join(o.dir, ".git", "objects"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(objects, "info", "alternates"), []byte(rel+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return dir, "", ""
		}},
		{name: "alternates of an alternate", make: func(t *testing.T, o *repo, base, head string) (string, string, string) {
			mid := cloneInto(t, "--shared", o.dir)
			leaf := cloneInto(t, "--shared", mid)
			if got, want := alternatesOf(t, leaf), filepath.Join(mid, ".git", "objects"); got != want {
				t.Fatalf("leaf's alternates = %q, want only the middle repository %q", got, want)
			}
			return leaf, "", ""
		}},
		{name: "linked worktree", make: func(t *testing.T, o *repo, base, head string) (string, string, string) {
			wt := filepath.Join(t.TempDir(), "wt")
			o.git("worktree", "add", "-q", "-b", "agent", wt, head)
			// From a subdirectory, with branch names from the common refs.
			sub := filepath.Join(wt, "sub")
			if err := os.Mkdir(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			o.git("branch", "base", base)
			return sub, "base", "agent"
		}},
		{name: "bare clone", make: func(t *testing.T, o *repo, base, head string) (string, string, string) {
			return cloneInto(t, "--bare", "file://"+o.dir), "", ""
		}},
		{name: "partial clone, blob:none", make: func(t *testing.T, o *repo, base, head string) (string, string, string) {
			dir := cloneInto(t, "--filter=blob:none", "file://"+o.dir)
			if objectsOf(t, dir)[o.git("rev-parse", base+":calc_test.go")] {
				t.Fatal("BASE's calc_test.go is in the partial clone; the test needs it missing")
			}
			return dir, "", ""
		}, after: func(t *testing.T, dir, base string) {
			// Fetched through git, as git would.
			if !objectsOf(t, dir)[gitIn(t, dir, "rev-parse", base+":calc_test.go")] {
				t.Error("BASE's calc_test.go is still missing after the analysis")
			}
		}},
		{name: "partial clone, tree:0", make: func(t *testing.T, o *repo, base, head string) (string, string, string) {
			return cloneInto(t, "--filter=tree:0", "file://"+o.dir), "", ""
		}},
		{name: "shallow clone holding the range", make: func(t *testing.T, o *repo, base, head string) (string, string, string) {
			return cloneInto(t, "--depth", "2", "file://"+o.dir), "", ""
		}},
		{name: "multi-pack-index and commit-graph, nothing loose", make: func(t *testing.T, o *repo, base, head string) (string, string, string) {
			dir := cloneInto(t, "--no-local", o.dir)
			gitIn(t, dir, "repack", "-q", "-a", "-d", "--write-midx")
			gitIn(t, dir, "commit-graph", "write", "--reachable")
			gitIn(t, dir, "prune", "--expire=now")
			if n := gitIn(t, dir, "count-objects"); n != "0 objects, 0 kilobytes" {
				t.Fatalf("loose objects: %s", n)
			}
			for _, f := range []string{"objects/pack/multi-pack-index", "objects/info/commit-graph"} {
				if _, err := os.Stat(filepath.Join(dir, ".git", f)); err != nil {
					t.Fatal(err)
				}
			}
			return dir, "", ""
		}},
		{name: "packed refs, the loop's tags among them", make: func(t *testing.T, o *repo, base, head string) (string, string, string) {
			dir := cloneInto(t, "--no-local", o.dir)
			gitIn(t, dir, "tag", "ralph/ralph-calc-0123abcd/iter-000", base)
			gitIn(t, dir, "tag", "ralph/ralph-calc-0123abcd/iter-001", head)
			gitIn(t, dir, "pack-refs", "--all")
			for _, loose := range []string{"refs/heads/main", "refs/tags/ralph/ralph-calc-0123abcd/iter-000"} {
				if _, err := os.Stat(filepath.Join(dir, ".git", loose)); !os.IsNotExist(err) {
					t.Fatalf("%s is not only in packed-refs: %v", loose, err)
				}
			}
			return dir, "ralph/ralph-calc-0123abcd/iter-000", "main"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			origin, base, head := layoutOrigin(t)
			dir, baseRev, headRev := tt.make(t, origin, base, head)
			if baseRev == "" {
				baseRev, headRev = base, head
			}
			wantDeletion(t, runGate(t, dir, "", "analyze", "--format", "json", baseRev, headRev), base, head)
			if tt.after != nil {
				tt.after(t, dir, base)
			}
		})
	}
}

// TestLayoutsInputErrors: layouts that cannot give the answer exit 2 with
// one line naming the problem and the way out.
func TestLayoutsInputErrors(t *testing.T) {
	t.Parallel()
	t.Run("shallow clone without BASE", func(t *testing.T) {
		t.Parallel()
		origin, base, _ := layoutOrigin(t)
		origin.write("calc.go", calcSrc+"\n")
		origin.commit("one more")
		dir := cloneInto(t, "--depth", "1", "file://"+origin.dir)
		for _, cmd := range []string{"analyze", "compare"} {
			wantInputError(t, runGate(t, dir, "", cmd, base, "HEAD"), "shallow clone", "fetch-depth: 0")
		}
		// HEAD~1 is beyond the boundary too.
		wantInputError(t, runGate(t, dir, "", "analyze", "HEAD~1"), `"HEAD~1"`, "fetch more history")
	})
	t.Run("partial clone, promisor remote gone", func(t *testing.T) {
		t.Parallel()
		origin, base, head := layoutOrigin(t)
		dir := cloneInto(t, "--filter=blob:none", "file://"+origin.dir)
		if err := os.Rename(origin.dir, origin.dir+".gone"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Rename(origin.dir+".gone", origin.dir) })
		missing := gitIn(t, origin.dir+".gone", "rev-parse", base+":calc_test.go")[:12]
		for _, cmd := range []string{"analyze", "compare"} {
			wantInputError(t, runGate(t, dir, "", cmd, base, head),
				missing, "missing from this partial clone", `promisor remote "origin"`, "does not appear to be a git repository", "clone without --filter")
		}
	})
	t.Run("SHA-256 object names", func(t *testing.T) {
		t.Parallel()
		r := &repo{t: t, dir: t.TempDir()}
		r.git("init", "-q", "-b", "main", "--object-format=sha256")
		r.write("go.mod", "module example.com/calc\n\ngo 1.26\n")
		r.write("calc.go", calcSrc)
		r.write("calc_test.go", calcTest)
		base := r.commit("base")
		r.write("calc_test.go", calcTestNoSub)
		head := r.commit("drop TestSub")
		for _, cmd := range []string{"analyze", "compare"} {
			wantInputError(t, runGate(t, r.dir, "", cmd, base, head), r.dir, "SHA-256", "git diff BASE HEAD | ralph-gate analyze --patch -")
		}
		// The advice works.
		res := runGate(t, r.dir, r.git("diff", base, head)+"\n", "analyze", "--format", "json", "--patch", "-")
		rep := parseReport(t, res.stdout)
		if res.code != 1 || len(rep.Findings) != 1 || rep.Findings[0].Test != "TestSub" || rep.Findings[0].Type != "test_deletion" {
			t.Errorf("analyze --patch of the diff: exit %d, findings %+v", res.code, rep.Findings)
		}
	})
	t.Run("alternate object directory gone", func(t *testing.T) {
		t.Parallel()
		origin, base, _ := layoutOrigin(t)
		dir := cloneInto(t, "--shared", origin.dir)
		if err := os.Rename(origin.dir, origin.dir+".gone"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Rename(origin.dir+".gone", origin.dir) })
		wantInputError(t, runGate(t, dir, "", "analyze", base, "HEAD"),
			"object not found", filepath.Join(origin.dir, ".git", "objects"), "does not exist")
	})
}
