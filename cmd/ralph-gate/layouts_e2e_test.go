//go:build unix

package main

import (
	"encoding/json"
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

// TestLayoutsCompare: compare measures BASE and HEAD in temporary worktrees,
// which git makes from each layout; the measured deletion blocks and no
// worktree is left behind.
func TestLayoutsCompare(t *testing.T) {
	slow(t)
	t.Parallel()
	tests := []struct {
		name string
		make func(t *testing.T, origin *repo, head string) string
	}{
		{name: "clone --shared", make: func(t *testing.T, o *repo, head string) string {
			return cloneInto(t, "--shared", o.dir)
		}},
		{name: "clone --reference", make: func(t *testing.T, o *repo, head string) string {
			return cloneInto(t, "--reference", o.dir, "file://"+o.dir)
		}},
		{name: "linked worktree", make: func(t *testing.T, o *repo, head string) string {
			wt := filepath.Join(t.TempDir(), "wt")
			o.git("worktree", "add", "-q", "--detach", wt, head)
			return wt
		}},
		{name: "partial clone", make: func(t *testing.T, o *repo, head string) string {
			o.git("config", "uploadpack.allowFilter", "true")
			return cloneInto(t, "--filter=blob:none", "file://"+o.dir)
		}},
		{name: "shallow clone holding the range", make: func(t *testing.T, o *repo, head string) string {
			return cloneInto(t, "--depth", "2", "file://"+o.dir)
		}},
		{name: "bare clone", make: func(t *testing.T, o *repo, head string) string {
			return cloneInto(t, "--bare", "file://"+o.dir)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			origin := compareModule(t)
			base := origin.git("rev-parse", "HEAD")
			origin.remove("mul_test.go")
			head := origin.commit("agent: drop the slow tests")
			w := &repo{t: t, dir: tt.make(t, origin, head)}
			bare := w.git("rev-parse", "--is-bare-repository") == "true"
			status := func() string {
				if bare {
					return ""
				}
				return w.git("status", "--porcelain")
			}
			worktrees, before := w.git("worktree", "list", "--porcelain"), status()

			res := runGate(t, w.dir, "", "compare", "--format", "json", base, head)
			if res.code != 1 {
				t.Fatalf("exit %d, want 1\n%s\n%s", res.code, res.stdout, res.stderr)
			}
			rep := parseCompare(t, res.stdout)
			if !rep.has("test_deletion", "", "TestMul") {
				t.Errorf("no test_deletion of TestMul: %+v", rep.Findings)
			}
			b, h := rep.Metrics.Base, rep.Metrics.Head
			if b.TestCount == nil || h.TestCount == nil || *b.TestCount != 3 || *h.TestCount != 2 {
				t.Errorf("test_count base %v head %v, want 3 and 2 measured", deref(b.TestCount), deref(h.TestCount))
			}
			if got := w.git("worktree", "list", "--porcelain"); got != worktrees {
				t.Errorf("worktrees changed:\n%s\nwant\n%s", got, worktrees)
			}
			if got := status(); got != before {
				t.Errorf("compare touched the checkout: %q, was %q", got, before)
			}
		})
	}
}

// TestLayoutsLoop runs a loop where the repository is laid out otherwise: an
// honest iteration, then a cheat that deletes a test (blocked), rejected by
// the human, which restores the first iteration from its tag.
func TestLayoutsLoop(t *testing.T) {
	slow(t)
	t.Parallel()
	tests := []struct {
		name string
		make func(t *testing.T, origin *repo) string
		// packRefs packs every ref after the first iteration, as git gc
		// does: the loop's tags are then only in packed-refs.
		packRefs bool
	}{
		{name: "linked worktree", make: func(t *testing.T, o *repo) string {
			wt := filepath.Join(t.TempDir(), "wt")
			o.git("worktree", "add", "-q", "-b", "agent", wt)
			return wt
		}},
		{name: "clone --shared", make: func(t *testing.T, o *repo) string {
			dir := cloneInto(t, "--shared", o.dir)
			gitIn(t, dir, "checkout", "-q", "-b", "agent")
			return dir
		}},
		{name: "packed refs", packRefs: true, make: func(t *testing.T, o *repo) string {
			return o.dir
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			origin := loopModule(t)
			w := &repo{t: t, dir: tt.make(t, origin)}
			id := startLoop(t, w, "--task", "fix calc", "--completion", "test -f DONE", "--collect", "none")

			w.write("calc.go", strings.Replace(loopCalcSrc, "return a - b", "return a + b", 1))
			w.commit("iteration 1: fix Add")
			if it := record(t, w, 0); it.Decision != "continue" || it.Tag != "ralph/"+id+"/iter-001" {
				t.Fatalf("iteration 1 = %+v", it)
			}
			if tt.packRefs {
				w.git("pack-refs", "--all")
				if _, err := os.Stat(filepath.Join(w.dir, ".git", "refs", "tags", "ralph", id, "iter-001")); !os.IsNotExist(err) {
					t.Fatalf("the tag is not only in packed-refs: %v", err)
				}
			}

			w.write("calc_test.go", strings.Split(loopCalcTest, "func TestSub")[0]+"func TestMul"+strings.Split(loopCalcTest, "func TestMul")[1])
			w.commit("iteration 2: tests pass now")
			if it := record(t, w, 1); it.Decision != "blocked" || !it.has("test_deletion", "critical", "TestSub") {
				t.Fatalf("iteration 2 (a deleted test) = %+v", it)
			}
			if rej := runGate(t, w.dir, "", "reject", "--by", "reviewer"); rej.code != 0 || !strings.Contains(rej.stdout, "restored iteration 1") {
				t.Fatalf("reject: exit %d\n%s%s", rej.code, rej.stdout, rej.stderr)
			}
			if diff := w.git("diff", "ralph/"+id+"/iter-001", "HEAD"); diff != "" {
				t.Errorf("the restored tree differs from iteration 1:\n%s", diff)
			}
			// Unmeasured (--collect none), no iteration reaches the
			// threshold; the best below it is the honest one, not the cheat.
			best := runGate(t, w.dir, "", "best", "--format", "json")
			var b struct{ Reason string }
			if err := json.Unmarshal([]byte(best.stdout), &b); err != nil || !strings.Contains(b.Reason, "the best one below it is iteration 1 ") {
				t.Errorf("best = %s (%v), want iteration 1", best.stdout, err)
			}
			// The tags are where git reads them: for a linked worktree, in
			// the repository it shares them with.
			want := "ralph/" + id + "/iter-000\nralph/" + id + "/iter-001\nralph/" + id + "/iter-002"
			if got := w.git("tag", "--list", "ralph/*"); got != want {
				t.Errorf("tags = %q, want %q", got, want)
			}
			if st := w.git("status", "--porcelain"); strings.Contains(st, ".aiwg") {
				t.Errorf("loop state shows in git status (info/exclude not read):\n%s", st)
			}
		})
	}
}

// TestLayoutsPrePush: the pre-push hook refuses a push that deletes a test
// from a clone that borrows its objects, and from a linked worktree (the
// hook lives in the repository's shared hooks directory).
func TestLayoutsPrePush(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		make func(t *testing.T, p *pushed) string
	}{
		{name: "clone --shared", make: func(t *testing.T, p *pushed) string {
			return cloneInto(t, "--shared", p.bare)
		}},
		{name: "linked worktree", make: func(t *testing.T, p *pushed) string {
			wt := filepath.Join(t.TempDir(), "wt")
			p.git("worktree", "add", "-q", "-b", "agent", wt)
			return wt
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := newPushed(t, false)
			w := &pushed{repo: &repo{t: t, dir: tt.make(t, p)}, bare: p.bare}
			if res := runGate(t, w.dir, "", "hook", "install"); res.code != 0 {
				t.Fatalf("hook install: exit %d\n%s%s", res.code, res.stdout, res.stderr)
			}
			before := p.remoteRef("main")
			w.write("calc_test.go", calcTestNoSub)
			bad := w.commit("drop TestSub")
			res := w.push(nil, "origin", "HEAD:main")
			if res.code == 0 {
				t.Fatalf("the push went through:\n%s", res.stderr)
			}
			for _, want := range []string{"test_deletion", "TestSub", bad[:12], "push refused"} {
				if !strings.Contains(res.stderr, want) {
					t.Errorf("push output lacks %q:\n%s", want, res.stderr)
				}
			}
			if got := p.remoteRef("main"); got != before {
				t.Errorf("the remote changed: %s -> %s", before, got)
			}
		})
	}
}

// TestLayoutsGuard: the guard keeps the gate's files out of reach whatever
// the layout: a linked worktree's shared .git, and a SHA-256 repository that
// ralph-gate cannot read (default rules, and the edit still judged).
func TestLayoutsGuard(t *testing.T) {
	t.Parallel()
	origin := guardModule(t, "")
	wt := filepath.Join(t.TempDir(), "wt")
	origin.git("worktree", "add", "-q", "-b", "agent", wt)

	sha := &repo{t: t, dir: t.TempDir()}
	sha.git("init", "-q", "-b", "main", "--object-format=sha256")
	sha.write("calc.go", loopCalcSrc)
	sha.write("calc_test.go", loopCalcTest)
	sha.commit("base")

	dropMul := map[string]any{"old_string": "func TestMul(t *testing.T) {\n\tif got := Mul(2, 3); got != 6 {\n\t\tt.Errorf(\"Mul(2, 3) = %d, want 6\", got)\n\t}\n}\n", "new_string": ""}
	edit := func(file string) map[string]any {
		in := map[string]any{"file_path": file}
		for k, v := range dropMul {
			in[k] = v
		}
		return in
	}
	tests := []struct {
		name, dir, tool string
		input           map[string]any
		deny            string
	}{
		{name: "worktree: the shared hooks", dir: wt, tool: "Write", input: map[string]any{"file_path": filepath.Join(origin.dir, ".git", "hooks", "pre-push"), "content": "exit 0"}, deny: "git's own files"},
		{name: "worktree: the shared config", dir: wt, tool: "Edit", input: map[string]any{"file_path": filepath.Join(origin.dir, ".git", "config"), "old_string": "[core]", "new_string": "[core]\n\thooksPath = /tmp"}, deny: "git's own files"},
		{name: "worktree: its .git file", dir: wt, tool: "Write", input: map[string]any{"file_path": filepath.Join(wt, ".git"), "content": "gitdir: /tmp/elsewhere\n"}, deny: "git's own files"},
		{name: "worktree: the configuration", dir: wt, tool: "Write", input: map[string]any{"file_path": filepath.Join(wt, ".ralph-gate.yml"), "content": "fail_on: none\n"}, deny: ".ralph-gate.yml"},
		{name: "worktree: a test deleted", dir: wt, tool: "Edit", input: edit(filepath.Join(wt, "calc_test.go")), deny: "test_deletion"},
		{name: "worktree: the code fixed", dir: wt, tool: "Edit", input: map[string]any{"file_path": filepath.Join(wt, "calc.go"), "old_string": "return a - b", "new_string": "return a + b"}},
		{name: "SHA-256: the configuration", dir: sha.dir, tool: "Write", input: map[string]any{"file_path": filepath.Join(sha.dir, ".ralph-gate.yml"), "content": "fail_on: none\n"}, deny: ".ralph-gate.yml"},
		{name: "SHA-256: git's hooks", dir: sha.dir, tool: "Write", input: map[string]any{"file_path": filepath.Join(sha.dir, ".git", "hooks", "pre-push"), "content": "exit 0"}, deny: "git's own files"},
		{name: "SHA-256: a test deleted", dir: sha.dir, tool: "Edit", input: edit(filepath.Join(sha.dir, "calc_test.go")), deny: "test_deletion"},
		{name: "SHA-256: the code fixed", dir: sha.dir, tool: "Edit", input: map[string]any{"file_path": filepath.Join(sha.dir, "calc.go"), "old_string": "return a - b", "new_string": "return a + b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reason := preToolUse(t, tc.dir, hookPayload(t, "PreToolUse", tc.dir, tc.tool, tc.input, nil))
			switch {
			case tc.deny == "" && reason != "":
				t.Errorf("denied: %s", reason)
			case tc.deny != "" && !strings.Contains(reason, tc.deny):
				t.Errorf("reason %q, want a denial saying %q", reason, tc.deny)
			}
		})
	}
}
