package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestHookPreCommit runs `ralph-gate hook pre-commit` from a plain git
// pre-commit hook on real commits: a commit whose staged change deletes a
// test is refused and HEAD stays, whether it was staged with git add or by
// git commit -a (git's temporary index); an honest commit, a commit of
// unstaged-only changes and the first commit of a repository go through;
// RALPH_GATE_SKIP and --no-verify commit anyway.
func TestHookPreCommit(t *testing.T) {
	t.Parallel()
	hookScript := "#!/bin/sh\nexec '" + binary + "' hook pre-commit\n"
	for _, tc := range []struct {
		name   string
		change func(r *repo)
		commit []string // git commit's arguments after -q -m msg
		env    []string
		code   int
		want   []string // in git's output
	}{
		{
			name:   "a staged test deletion",
			change: func(r *repo) { r.write("calc_test.go", calcTestNoSub); r.git("add", "calc_test.go") },
			code:   1,
			want: []string{"the staged changes against HEAD", "critical test_deletion calc_test.go:11 test TestSub",
				"commit refused: 1 net finding at or above high", "git commit --no-verify, or RALPH_GATE_SKIP=1 git commit"},
		},
		{
			name:   "git commit -a",
			change: func(r *repo) { r.write("calc_test.go", calcTestNoSub) },
			commit: []string{"-a"},
			code:   1,
			want:   []string{"critical test_deletion calc_test.go:11 test TestSub", "commit refused"},
		},
		{
			name:   "git commit PATH",
			change: func(r *repo) { r.write("calc_test.go", calcTestNoSub) },
			commit: []string{"--", "calc_test.go"},
			code:   1,
			want:   []string{"critical test_deletion calc_test.go:11 test TestSub", "commit refused"},
		},
		{
			name: "an honest commit",
			change: func(r *repo) {
				r.write("calc_test.go", calcTest+"\nfunc TestAddZero(t *testing.T) {\n\tif Add(0, 0) != 0 {\n\t\tt.Fatal(\"0+0\")\n\t}\n}\n")
				r.git("add", "-A")
			},
			want: []string{"the staged changes against HEAD", ": pass"},
		},
		{
			name: "a deletion left unstaged",
			change: func(r *repo) {
				r.write("calc.go", calcSrc+"\n// Mul multiplies.\nfunc Mul(a, b int) int { return a * b }\n")
				r.git("add", "calc.go")
				r.write("calc_test.go", calcTestNoSub)
			},
			want: []string{": pass"},
		},
		{
			name:   "RALPH_GATE_SKIP",
			change: func(r *repo) { r.write("calc_test.go", calcTestNoSub); r.git("add", "calc_test.go") },
			env:    []string{"RALPH_GATE_SKIP=1"},
			want:   []string{"RALPH_GATE_SKIP is set: pre-commit check skipped"},
		},
		{
			name:   "--no-verify",
			change: func(r *repo) { r.write("calc_test.go", calcTestNoSub); r.git("add", "calc_test.go") },
			commit: []string{"--no-verify"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := goModule(t)
			writeScript(t, filepath.Join(r.dir, ".git", "hooks", "pre-commit"), hookScript)
			tc.change(r)
			head := r.git("rev-parse", "HEAD")
			res := gitTry(t, r.dir, pushEnv(tc.env...), append([]string{"commit", "-q", "-m", "iteration 2"}, tc.commit...)...)
			if res.code != 0 && tc.code == 0 || res.code == 0 && tc.code != 0 {
				t.Errorf("git commit: exit %d, want %d\n%s", res.code, tc.code, res.stderr)
			}
			for _, want := range tc.want {
				if !strings.Contains(res.stderr, want) {
					t.Errorf("git commit's output lacks %q:\n%s", want, res.stderr)
				}
			}
			if moved := r.git("rev-parse", "HEAD") != head; moved != (tc.code == 0) {
				t.Errorf("HEAD moved: %v, want %v", moved, tc.code == 0)
			}
		})
	}

	t.Run("the first commit", func(t *testing.T) {
		t.Parallel()
		r := newRepo(t)
		writeScript(t, filepath.Join(r.dir, ".git", "hooks", "pre-commit"), hookScript)
		r.write("calc_test.go", calcTest)
		r.git("add", "-A")
		res := gitTry(t, r.dir, pushEnv(), "commit", "-q", "-m", "first")
		if res.code != 0 || !strings.Contains(res.stderr, "nothing to check: this is the repository's first commit") {
			t.Errorf("first commit: exit %d\n%s", res.code, res.stderr)
		}
	})

	t.Run("by hand, outside a repository", func(t *testing.T) {
		t.Parallel()
		res := runGate(t, t.TempDir(), "", "hook", "pre-commit")
		if res.code != 2 || !strings.Contains(res.stderr, "not a git work tree") || !strings.Contains(res.stderr, "git commit --no-verify") {
			t.Errorf("outside a repository: exit %d\n%s", res.code, res.stderr)
		}
		if res := runGate(t, t.TempDir(), "", "hook", "pre-commit", "a.go"); res.code != 2 || !strings.Contains(res.stderr, "pass_filenames: false") {
			t.Errorf("a file argument: exit %d\n%s", res.code, res.stderr)
		}
	})
}
