package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// preCommit finds pre-commit: $RALPH_GATE_PRE_COMMIT (.ci/run installs
// Debian's), else pre-commit on PATH, at 2.17 or later, the
// minimum_pre_commit_version of .pre-commit-hooks.yaml.
func preCommit(t *testing.T) string {
	t.Helper()
	hint := "pre-commit is not installed (apt-get install pre-commit, or set RALPH_GATE_PRE_COMMIT to its path)"
	p := os.Getenv("RALPH_GATE_PRE_COMMIT")
	if p == "" {
		p, _ = exec.LookPath("pre-commit")
	}
	if p == "" {
		missingTool(t, "RALPH_GATE_REQUIRE_PRE_COMMIT", hint)
	}
	out, err := exec.Command(p, "--version").Output()
	var major, minor int
	if m := regexp.MustCompile(`^pre-commit (\d+)\.(\d+)\.`).FindStringSubmatch(string(out)); m != nil {
		major, _ = strconv.Atoi(m[1])
		minor, _ = strconv.Atoi(m[2])
	}
	if err != nil || major < 2 || major == 2 && minor < 17 {
		missingTool(t, "RALPH_GATE_REQUIRE_PRE_COMMIT", p+" is not pre-commit 2.17 or later ("+strings.TrimSpace(string(out))+"): "+hint)
	}
	return p
}

// hookSource is a git repository holding this checkout's files as they are
// now (tracked, and untracked but not ignored), committed: what pre-commit
// clones when a project's configuration names ralph-gate's repository and a
// rev, so that the test exercises the .pre-commit-hooks.yaml and the code
// being changed, not the last commit's.
func hookSource(t *testing.T) (dir, rev string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	list := command(t, root, os.Environ(), "", "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if list.code != 0 {
		t.Fatalf("git ls-files: %s", list.stderr)
	}
	dir = t.TempDir()
	for _, name := range strings.Split(strings.TrimRight(list.stdout, "\x00"), "\x00") {
		src := filepath.Join(root, filepath.FromSlash(name))
		fi, err := os.Lstat(src)
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, or a symbolic link
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-q", "-m", "ralph-gate as checked out")
	return dir, gitIn(t, dir, "rev-parse", "HEAD")
}

// TestPreCommitRunsHooks: pre-commit (Debian 12's 3.0.4 in CI) installs this
// repository's .pre-commit-hooks.yaml into a real project, building
// ralph-gate with go install as `language: golang` does, and then, from
// git's own hooks: refuses the commit whose staged changes delete a test,
// lets an honest commit and its push through, and refuses the push of a
// commit that deletes a test (committed with --no-verify). Before the hooks
// used the stage names every pre-commit reads, this version refused the
// repository outright ("Expected one of commit, ..., push but got:
// 'pre-push'").
func TestPreCommitRunsHooks(t *testing.T) {
	t.Parallel()
	slow(t)
	bin := preCommit(t)
	src, rev := hookSource(t)
	modcache := strings.TrimSpace(command(t, ".", os.Environ(), "", "go", "env", "GOMODCACHE").stdout)

	bare := filepath.Join(t.TempDir(), "remote.git")
	gitIn(t, filepath.Dir(bare), "init", "-q", "--bare", "-b", "main", bare)
	r := goModule(t)
	r.git("remote", "add", "origin", bare)
	r.write(".pre-commit-config.yaml", "default_install_hook_types: [pre-commit, pre-push]\nrepos:\n  - repo: "+src+"\n    rev: "+rev+
		"\n    hooks:\n      - id: ralph-gate\n      - id: ralph-gate-commit\n")
	r.commit("pre-commit")
	r.git("push", "-q", "-u", "origin", "main")

	// pre-commit keeps its clones and environments in PRE_COMMIT_HOME. The
	// Go module cache is the machine's (go install reads every dependency
	// of ralph-gate), and -trimpath with CGO_ENABLED=0, as the release
	// build and .ci/run's static build use them, lets the build cache serve
	// a checkout at a new path.
	env := pushEnv("PRE_COMMIT_HOME="+t.TempDir(), "GOMODCACHE="+modcache, "GOFLAGS=-trimpath", "CGO_ENABLED=0", "PRE_COMMIT_COLOR=never")
	install := command(t, r.dir, env, "", bin, "install", "--install-hooks")
	if install.code != 0 {
		t.Fatalf("pre-commit install --install-hooks: exit %d\n%s%s", install.code, install.stdout, install.stderr)
	}
	for _, hook := range []string{"pre-commit", "pre-push"} {
		if _, err := os.Stat(filepath.Join(r.dir, ".git", "hooks", hook)); err != nil {
			t.Fatalf("pre-commit installed no %s hook: %v\n%s", hook, err, install.stdout)
		}
	}

	deleteTest := func() { r.write("calc_test.go", calcTestNoSub) }
	steps := []struct {
		name   string
		change func()
		args   []string // git's
		code   int
		want   []string // in git's output
	}{
		{"a commit that deletes a test", deleteTest, []string{"commit", "-q", "-am", "make the tests pass"}, 1, []string{
			"ralph-gate regression gate (staged changes)", "Failed",
			"critical test_deletion calc_test.go:11 test TestSub", "commit refused",
		}},
		{"an honest commit", func() {
			r.git("checkout", "-q", "--", "calc_test.go")
			r.write("calc.go", calcSrc+"\n// Mul multiplies.\nfunc Mul(a, b int) int { return a * b }\n")
		}, []string{"commit", "-q", "-am", "add Mul"}, 0, []string{"ralph-gate regression gate (staged changes)", "Passed"}},
		{"its push", nil, []string{"push", "origin", "main"}, 0, []string{"ralph-gate regression gate", "Passed"}},
		{"a commit past the hook", deleteTest, []string{"commit", "-q", "--no-verify", "-am", "make the tests pass"}, 0, nil},
		{"its push", nil, []string{"push", "origin", "main"}, 1, []string{
			"ralph-gate regression gate", "Failed", "critical test_deletion calc_test.go:11 test TestSub", "push refused",
		}},
	}
	for _, step := range steps {
		if step.change != nil {
			step.change()
		}
		head, remote := r.git("rev-parse", "HEAD"), gitIn(t, bare, "rev-parse", "main")
		res := gitTry(t, r.dir, env, step.args...)
		if res.code != 0 && step.code == 0 || res.code == 0 && step.code != 0 {
			t.Errorf("%s: git %s: exit %d, want %d\n%s", step.name, step.args[0], res.code, step.code, res.stderr)
		}
		for _, want := range step.want {
			if !strings.Contains(res.stderr, want) {
				t.Errorf("%s: git %s's output lacks %q:\n%s", step.name, step.args[0], want, res.stderr)
			}
		}
		if step.code != 0 {
			if got := r.git("rev-parse", "HEAD"); got != head {
				t.Errorf("%s: HEAD moved to %s", step.name, got)
			}
			if got := gitIn(t, bare, "rev-parse", "main"); got != remote {
				t.Errorf("%s: the remote moved to %s", step.name, got)
			}
		}
	}
}
