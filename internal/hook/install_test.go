package hook

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// gitEnv pins identities and dates and keeps the user's configuration out.
var gitEnv = []string{
	"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com",
	"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com",
	"GIT_AUTHOR_DATE=2024-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2024-01-02T03:04:05Z",
	"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
}

// repoEnv are the variables git sets for hooks; a test run from a hook must
// not act on the outer repository.
var repoEnv = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_PREFIX"}

func TestMain(m *testing.M) {
	for _, k := range repoEnv {
		os.Unsetenv(k)
	}
	for _, kv := range gitEnv {
		k, v, _ := strings.Cut(kv, "=")
		os.Setenv(k, v)
	}
	os.Exit(m.Run())
}

func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return testgit.RunEnv(t, dir, "", gitEnv, args...)
}

func initRepo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	return dir
}

func TestHooksDir(t *testing.T) {
	ctx := context.Background()
	dir := initRepo(t)
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "first")
	got, err := HooksDir(ctx, dir)
	if err != nil || got != filepath.Join(dir, ".git", "hooks") {
		t.Errorf("HooksDir = %q, %v; want .git/hooks", got, err)
	}
	// From a subdirectory, and from a linked worktree: the common hooks.
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := HooksDir(ctx, sub); err != nil || got != filepath.Join(dir, ".git", "hooks") {
		t.Errorf("from a subdirectory: %q, %v", got, err)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, dir, "worktree", "add", "-q", wt)
	if got, err := HooksDir(ctx, wt); err != nil || got != filepath.Join(dir, ".git", "hooks") {
		t.Errorf("from a worktree: %q, %v", got, err)
	}
	// core.hooksPath, relative (to the work tree) and absolute.
	git(t, dir, "config", "core.hooksPath", ".githooks")
	if got, err := HooksDir(ctx, sub); err != nil || got != filepath.Join(dir, ".githooks") {
		t.Errorf("relative core.hooksPath: %q, %v", got, err)
	}
	abs := filepath.Join(t.TempDir(), "hooks")
	git(t, dir, "config", "core.hooksPath", abs)
	if got, err := HooksDir(ctx, dir); err != nil || got != abs {
		t.Errorf("absolute core.hooksPath: %q, %v", got, err)
	}
	// Not a repository: one line naming the directory.
	notRepo := t.TempDir()
	_, err = HooksDir(ctx, notRepo)
	if err == nil || !strings.Contains(err.Error(), notRepo) || !strings.Contains(err.Error(), "not a git repository") || strings.Contains(err.Error(), "\n") {
		t.Errorf("not a repository: %v", err)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mode(t *testing.T, p string) os.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode()
}

func TestInstallFresh(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hooks") // created by Install
	res, err := Install(dir, "/opt/ralph gate/bin/ralph-gate", false)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, HookName)
	if res.Action != Installed || res.Path != path || res.Chained != "" || res.Backup != "" {
		t.Errorf("result = %+v", res)
	}
	content := readFile(t, path)
	if !IsManaged([]byte(content)) || !strings.Contains(content, `ralph_gate='/opt/ralph gate/bin/ralph-gate'`) {
		t.Errorf("script:\n%s", content)
	}
	if runtime.GOOS != "windows" && mode(t, path).Perm()&0o111 == 0 {
		t.Errorf("hook is not executable: %v", mode(t, path))
	}
	// Again: nothing changes.
	res, err = Install(dir, "/opt/ralph gate/bin/ralph-gate", false)
	if err != nil || res.Action != Unchanged {
		t.Errorf("second install: %+v, %v", res, err)
	}
	// Another binary: rewritten.
	res, err = Install(dir, "/usr/local/bin/ralph-gate", false)
	if err != nil || res.Action != Updated || !strings.Contains(readFile(t, path), "ralph_gate='/usr/local/bin/ralph-gate'") {
		t.Errorf("install with another binary: %+v, %v", res, err)
	}
	// Uninstall removes it; a second uninstall changes nothing.
	ures, err := Uninstall(dir)
	if err != nil || !ures.Removed || ures.Restored != "" {
		t.Errorf("uninstall: %+v, %v", ures, err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("hook still there: %v", err)
	}
	if ures, err := Uninstall(dir); err != nil || ures.Removed || ures.Restored != "" {
		t.Errorf("second uninstall: %+v, %v", ures, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("files left behind: %v", entries)
	}
}

func TestInstallChainsAndRestores(t *testing.T) {
	for _, force := range []bool{false, true} {
		t.Run(map[bool]string{false: "chain", true: "force"}[force], func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, HookName)
			original := "#!/bin/sh\n# the team's hook\nexit 0\n"
			if err := os.WriteFile(path, []byte(original), 0o750); err != nil {
				t.Fatal(err)
			}
			before := mode(t, path)
			res, err := Install(dir, "/bin/ralph-gate", force)
			if err != nil {
				t.Fatal(err)
			}
			keptAs, other := filepath.Join(dir, ChainedName), res.Backup
			if force {
				keptAs, other = filepath.Join(dir, BackupName), res.Chained
			}
			if res.Action != Installed || (res.Chained+res.Backup) != keptAs || other != "" {
				t.Errorf("result = %+v", res)
			}
			if readFile(t, keptAs) != original || mode(t, keptAs) != before {
				t.Errorf("the earlier hook was not kept as is in %s", keptAs)
			}
			// Installing again keeps everything.
			if res, err := Install(dir, "/bin/ralph-gate", force); err != nil || res.Action != Unchanged || res.Chained+res.Backup != keptAs {
				t.Errorf("second install: %+v, %v", res, err)
			}
			ures, err := Uninstall(dir)
			if err != nil || !ures.Removed || ures.Restored != keptAs {
				t.Errorf("uninstall: %+v, %v", ures, err)
			}
			if readFile(t, path) != original || mode(t, path) != before {
				t.Errorf("uninstall did not restore the hook byte for byte and mode for mode")
			}
			if _, err := os.Lstat(keptAs); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s left behind", keptAs)
			}
		})
	}
}

func TestInstallRefusesToLoseAHook(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, HookName)
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A foreign hook and a chained one from an earlier install (say husky
	// rewrote ours since): installing would lose one of them.
	write(path, "#!/bin/sh\necho new foreign\n")
	write(filepath.Join(dir, ChainedName), "#!/bin/sh\necho old\n")
	for _, force := range []bool{false, true} {
		_, err := Install(dir, "", force)
		if !errors.Is(err, ErrLeftover) || !strings.Contains(err.Error(), ChainedName) {
			t.Errorf("force=%v: error = %v, want ErrLeftover naming %s", force, err, ChainedName)
		}
	}
	if readFile(t, path) != "#!/bin/sh\necho new foreign\n" {
		t.Error("the foreign hook was changed")
	}
	// Uninstall leaves a foreign hook alone.
	if _, err := Uninstall(dir); !errors.Is(err, ErrForeignHook) {
		t.Errorf("uninstall of a foreign hook: %v", err)
	}
	// No hook at all, only a leftover: install refuses, uninstall puts it back.
	os.Remove(path)
	if _, err := Install(dir, "", false); !errors.Is(err, ErrLeftover) {
		t.Errorf("install beside a leftover: %v", err)
	}
	res, err := Uninstall(dir)
	if err != nil || res.Removed || res.Restored == "" || readFile(t, path) != "#!/bin/sh\necho old\n" {
		t.Errorf("uninstall with a leftover: %+v, %v", res, err)
	}
}

// TestScriptRuns runs the installed script with sh the way git does: the
// chained hook and ralph-gate (here a recording stand-in named by
// RALPH_GATE_BIN) get git's arguments and input.
func TestScriptRuns(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs a POSIX sh")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	chained := "#!/bin/sh\necho \"chained $1 $2\" >>" + log + "\ncat >>" + log + "\nexit ${CHAINED_EXIT:-0}\n"
	if err := os.WriteFile(filepath.Join(dir, HookName), []byte(chained), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(dir, "/nonexistent/ralph-gate", false); err != nil {
		t.Fatal(err)
	}
	stand := filepath.Join(dir, "stand-in")
	if err := os.WriteFile(stand, []byte("#!/bin/sh\necho \"gate $*\" >>"+log+"\ncat >>"+log+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	input := "refs/heads/main " + shaA + " refs/heads/main " + shaB + "\n"
	run := func(env ...string) (string, int) {
		os.Remove(log)
		cmd := exec.Command(filepath.Join(dir, HookName), "origin", "file:///remote.git")
		cmd.Env = append(os.Environ(), env...)
		cmd.Stdin = strings.NewReader(input)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(log)
		return string(b) + stderr.String(), code
	}
	got, code := run("RALPH_GATE_BIN=" + stand)
	want := "chained origin file:///remote.git\n" + input + "gate hook pre-push origin file:///remote.git\n" + input
	if code != 0 || got != want {
		t.Errorf("exit %d, log:\n%s\nwant:\n%s", code, got, want)
	}
	got, code = run("RALPH_GATE_BIN="+stand, "CHAINED_EXIT=3")
	if code != 3 || strings.Contains(got, "gate hook") {
		t.Errorf("a failing chained hook: exit %d, log:\n%s", code, got)
	}
	got, code = run("RALPH_GATE_BIN="+stand, "RALPH_GATE_SKIP=1")
	if code != 0 || strings.Contains(got, "gate hook") || !strings.Contains(got, "skipped") {
		t.Errorf("RALPH_GATE_SKIP=1: exit %d, log:\n%s", code, got)
	}
	for _, p := range []string{"/usr/bin/ralph-gate", "/bin/ralph-gate"} {
		if _, err := os.Stat(p); err == nil {
			t.Skipf("%s is installed: cannot test a missing binary", p)
		}
	}
	got, code = run("PATH=/usr/bin:/bin")
	if code == 0 || !strings.Contains(got, "ralph-gate is not at '/nonexistent/ralph-gate' nor on PATH") {
		t.Errorf("no binary: exit %d, log:\n%s", code, got)
	}
}
