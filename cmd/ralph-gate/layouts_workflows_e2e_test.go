//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The commands that open the repository beyond analyze, from the layouts of
// layouts_e2e_test.go: compare (temporary worktrees), a loop (tags, state,
// info/exclude), the pre-push hook and the guard.

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
