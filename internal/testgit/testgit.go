// Package testgit holds the helpers the tests of every package use: real git
// repositories in temporary directories, with a fixed identity and date and
// away from the machine's configuration, and the Go toolchain's sources.
// Tests only.
package testgit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Env is what every test repository's git runs with: a fixed identity and
// date (the same content makes the same commits) and no system or global
// configuration.
var Env = []string{
	"GIT_AUTHOR_NAME=Agent", "GIT_AUTHOR_EMAIL=agent@example.com",
	"GIT_COMMITTER_NAME=Agent", "GIT_COMMITTER_EMAIL=agent@example.com",
	"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z",
	"GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
}

// repoEnv points git at a repository; a test run from a git hook has some
// set, and they must not send a test's git elsewhere.
var repoEnv = map[string]bool{
	"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_INDEX_FILE": true, "GIT_COMMON_DIR": true,
	"GIT_OBJECT_DIRECTORY": true, "GIT_ALTERNATE_OBJECT_DIRECTORIES": true, "GIT_NAMESPACE": true,
	"GIT_PREFIX": true, "GIT_CEILING_DIRECTORIES": true,
}

// RunEnv runs git in dir with Env and then extra (later values win), stdin
// as its standard input, and returns its trimmed output; it fails t when
// git fails.
func RunEnv(t testing.TB, dir, stdin string, extra []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !repoEnv[k] {
			env = append(env, kv)
		}
	}
	cmd.Env = append(append(env, Env...), extra...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// Run is RunEnv with no input and nothing more in the environment.
func Run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return RunEnv(t, dir, "", nil, args...)
}

// Init makes a repository (branch main) in a new temporary directory.
func Init(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	Run(t, dir, "init", "-q", "-b", "main")
	return dir
}

// InitCommitter makes a repository (branch main) in a new temporary
// directory, its path with symbolic links resolved (macOS's /var is
// /private/var) so that it compares with what git reports, whose own
// configuration names a committer and signs nothing: for code under test
// that commits with git's own environment rather than Env.
func InitCommitter(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	Run(t, dir, "init", "-q", "-b", "main")
	for _, kv := range [][2]string{{"user.name", "t"}, {"user.email", "t@t"}, {"commit.gpgsign", "false"}, {"tag.gpgsign", "false"}} {
		Run(t, dir, "config", kv[0], kv[1])
	}
	return dir
}

// Write writes a file of the work tree, making its directories.
func Write(t testing.TB, dir, path, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// WriteAll writes files of the work tree (path to content), as Write does.
func WriteAll(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for path, content := range files {
		Write(t, dir, path, content)
	}
}

// Commit commits the whole work tree and returns the commit's name.
func Commit(t testing.TB, dir, msg string) string {
	t.Helper()
	Run(t, dir, "add", "-A")
	Run(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
	return Run(t, dir, "rev-parse", "HEAD")
}

// GoRoot is the Go toolchain's root as go env reports it: tests read real
// files of the standard library from it.
func GoRoot(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil || len(strings.TrimSpace(string(out))) == 0 {
		t.Fatalf("go env GOROOT: %v", err)
	}
	return strings.TrimSpace(string(out))
}
