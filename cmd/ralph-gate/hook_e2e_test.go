package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// pushEnv is the environment of a real `git push`: the e2e identities, and
// none of the variables that would skip or redirect the hook.
func pushEnv(extra ...string) []string {
	env := []string{
		"GIT_AUTHOR_NAME=Agent", "GIT_AUTHOR_EMAIL=agent@example.com",
		"GIT_COMMITTER_NAME=Agent", "GIT_COMMITTER_EMAIL=agent@example.com",
		"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"RALPH_GATE_SKIP=", "RALPH_GATE_BIN=", "NO_COLOR=1",
	}
	return append(append(os.Environ(), env...), extra...)
}

// gitTry runs git and returns its exit code and combined output, for commands
// that are expected to fail (a refused push).
func gitTry(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code: code, stderr: out.String()}
}

// pushed is a work repository whose origin is a real bare repository, with
// main pushed and the hook installed.
type pushed struct {
	*repo
	bare string
}

func (p *pushed) push(extra []string, args ...string) result {
	p.t.Helper()
	return gitTry(p.t, p.dir, pushEnv(extra...), append([]string{"push"}, args...)...)
}

// remoteRef is the bare repository's value of a ref ("" when absent).
func (p *pushed) remoteRef(ref string) string {
	p.t.Helper()
	r := gitTry(p.t, p.bare, pushEnv(), "rev-parse", "--verify", "-q", ref)
	return strings.TrimSpace(r.stderr)
}

func newPushed(t *testing.T, install bool) *pushed {
	t.Helper()
	bare := filepath.Join(t.TempDir(), "remote.git")
	gitIn(t, filepath.Dir(bare), "init", "-q", "--bare", "-b", "main", bare)
	r := goModule(t)
	r.git("remote", "add", "origin", bare)
	r.git("push", "-q", "-u", "origin", "main")
	p := &pushed{repo: r, bare: bare}
	if install {
		res := runGate(t, r.dir, "", "hook", "install")
		if res.code != 0 || !strings.Contains(res.stdout, "installed the pre-push hook") {
			t.Fatalf("hook install: exit %d\n%s%s", res.code, res.stdout, res.stderr)
		}
	}
	return p
}

func TestHookRefusesDeletedTest(t *testing.T) {
	t.Parallel()
	p := newPushed(t, true)
	hookPath := filepath.Join(p.dir, ".git", "hooks", "pre-push")
	script, err := os.ReadFile(hookPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(script), binary) || !strings.Contains(string(script), `hook pre-push "$1" "$2"`) {
		t.Errorf("the hook does not run this binary:\n%s", script)
	}
	// A second install changes nothing, and says so.
	res := runGate(t, p.dir, "", "hook", "install")
	if again, _ := os.ReadFile(hookPath); res.code != 0 || !strings.Contains(res.stdout, "nothing changed") || !bytes.Equal(again, script) {
		t.Errorf("second install: exit %d, %q", res.code, res.stdout)
	}

	before := p.remoteRef("main")
	p.write("calc_test.go", calcTestNoSub)
	bad := p.commit("iteration 2: make the tests pass")
	res = p.push(nil, "origin", "main")
	if res.code == 0 {
		t.Fatalf("the push went through:\n%s", res.stderr)
	}
	for _, want := range []string{"critical", "test_deletion", "calc_test.go:11", "TestSub", bad[:12],
		"push refused", "git push --no-verify", "RALPH_GATE_SKIP=1 git push"} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("push output lacks %q:\n%s", want, res.stderr)
		}
	}
	if got := p.remoteRef("main"); got != before {
		t.Errorf("the remote changed: %s -> %s", before, got)
	}

	// RALPH_GATE_SKIP=1 bypasses ralph-gate, --no-verify every hook.
	if res := p.push([]string{"RALPH_GATE_SKIP=1"}, "origin", "main"); res.code != 0 || !strings.Contains(res.stderr, "skipped") {
		t.Errorf("RALPH_GATE_SKIP=1: exit %d\n%s", res.code, res.stderr)
	}
	if got := p.remoteRef("main"); got != bad {
		t.Errorf("RALPH_GATE_SKIP=1 did not push: remote at %s", got)
	}
	p.write("calc_test.go", calcTest)
	p.commit("restore")
	if res := p.push(nil, "origin", "main"); res.code != 0 {
		t.Fatalf("restoring push refused:\n%s", res.stderr)
	}
	p.write("calc_test.go", calcTestNoSub)
	bad2 := p.commit("delete again")
	if res := p.push(nil, "origin", "main"); res.code == 0 {
		t.Fatalf("second bad push went through:\n%s", res.stderr)
	}
	if res := p.push(nil, "--no-verify", "origin", "main"); res.code != 0 || p.remoteRef("main") != bad2 {
		t.Errorf("--no-verify: exit %d, remote %s\n%s", res.code, p.remoteRef("main"), res.stderr)
	}
}

func TestHookAllowsCleanAndNetCleanPushes(t *testing.T) {
	t.Parallel()
	p := newPushed(t, true)
	// A new test: clean.
	p.write("more_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestMore(t *testing.T) {\n\tif Add(1, 1) != 2 {\n\t\tt.Fatal(\"Add\")\n\t}\n}\n")
	clean := p.commit("add a test")
	res := p.push(nil, "origin", "main")
	if res.code != 0 || p.remoteRef("main") != clean || !strings.Contains(res.stderr, "refs/heads/main: 1 commit") || !strings.Contains(res.stderr, ": pass") {
		t.Fatalf("clean push: exit %d, remote %s\n%s", res.code, p.remoteRef("main"), res.stderr)
	}
	// A test deleted and restored within the same push: net clean.
	p.write("calc_test.go", calcTestNoSub)
	p.commit("iteration 3: delete TestSub")
	p.write("calc_test.go", calcTest)
	restored := p.commit("iteration 4: restore TestSub")
	res = p.push(nil, "origin", "main")
	if res.code != 0 || p.remoteRef("main") != restored {
		t.Fatalf("net-clean push: exit %d\n%s", res.code, res.stderr)
	}
	if !strings.Contains(res.stderr, "2 commits") || strings.Contains(res.stderr, "refused") {
		t.Errorf("net-clean push output:\n%s", res.stderr)
	}
}

func TestHookNewBranchAndDeletion(t *testing.T) {
	t.Parallel()
	p := newPushed(t, true)
	p.git("checkout", "-q", "-b", "agent/cheat")
	p.write("calc_test.go", calcTestNoSub)
	p.commit("agent: simplify")
	res := p.push(nil, "-u", "origin", "agent/cheat")
	if res.code == 0 || !strings.Contains(res.stderr, "TestSub") || !strings.Contains(res.stderr, "merge-base with origin/") {
		t.Fatalf("new branch deleting a test: exit %d\n%s", res.code, res.stderr)
	}
	if got := p.remoteRef("refs/heads/agent/cheat"); got != "" {
		t.Errorf("the branch reached the remote: %s", got)
	}

	p.git("checkout", "-q", "main")
	p.git("checkout", "-q", "-b", "agent/good")
	p.write("calc.go", calcSrc+"\n// Mul multiplies.\nfunc Mul(a, b int) int { return a * b }\n")
	good := p.commit("agent: add Mul")
	res = p.push(nil, "-u", "origin", "agent/good")
	if res.code != 0 || p.remoteRef("refs/heads/agent/good") != good {
		t.Fatalf("clean new branch: exit %d\n%s", res.code, res.stderr)
	}
	// Deleting a branch pushes nothing to check.
	res = p.push(nil, "origin", "--delete", "agent/good")
	if res.code != 0 || p.remoteRef("refs/heads/agent/good") != "" || !strings.Contains(res.stderr, "deletes the remote ref") {
		t.Errorf("branch deletion: exit %d\n%s", res.code, res.stderr)
	}
	// A tag of commits the remote has brings nothing new.
	p.git("tag", "v1", "main")
	if res := p.push(nil, "origin", "v1"); res.code != 0 || !strings.Contains(res.stderr, "tag of a commit already on origin/main") {
		t.Errorf("tag push: exit %d\n%s", res.code, res.stderr)
	}
}

func TestHookChainsExistingHook(t *testing.T) {
	t.Parallel()
	p := newPushed(t, false)
	hooks := filepath.Join(p.dir, ".git", "hooks")
	marker := filepath.Join(t.TempDir(), "marker")
	failFlag := filepath.Join(t.TempDir(), "fail")
	original := "#!/bin/sh\n# the team's own pre-push hook\necho \"remote $1\" >" + marker + "\ncat >>" + marker +
		"\nif [ -e " + failFlag + " ]; then echo 'team hook: no pushes today' >&2; exit 7; fi\n"
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	hookPath := filepath.Join(hooks, "pre-push")
	if err := os.WriteFile(hookPath, []byte(original), 0o751); err != nil {
		t.Fatal(err)
	}
	fiBefore, _ := os.Stat(hookPath)

	res := runGate(t, p.dir, "", "hook", "install")
	if res.code != 0 || !strings.Contains(res.stdout, "pre-push.ralph-gate-chained") {
		t.Fatalf("install beside a hook: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	// A clean push runs the team's hook first, with git's arguments and input.
	p.write("notes.go", "package calc\n")
	clean := p.commit("notes")
	res = p.push(nil, "origin", "main")
	if res.code != 0 {
		t.Fatalf("clean push: exit %d\n%s", res.code, res.stderr)
	}
	got, err := os.ReadFile(marker)
	if err != nil || !strings.HasPrefix(string(got), "remote origin\nrefs/heads/main "+clean+" refs/heads/main ") {
		t.Errorf("the chained hook did not run with git's input: %q, %v", got, err)
	}
	// Its failure still refuses the push.
	if err := os.WriteFile(failFlag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p.write("notes.go", "package calc\n\n// More.\n")
	p.commit("more notes")
	res = p.push(nil, "origin", "main")
	if res.code == 0 || !strings.Contains(res.stderr, "no pushes today") || p.remoteRef("main") != clean {
		t.Errorf("a failing chained hook: exit %d, remote %s\n%s", res.code, p.remoteRef("main"), res.stderr)
	}
	// Uninstall puts it back byte for byte, mode for mode.
	res = runGate(t, p.dir, "", "hook", "uninstall")
	if res.code != 0 || !strings.Contains(res.stdout, "put back") {
		t.Fatalf("uninstall: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	after, err := os.ReadFile(hookPath)
	fiAfter, _ := os.Stat(hookPath)
	if err != nil || string(after) != original || fiAfter.Mode() != fiBefore.Mode() {
		t.Errorf("uninstall did not restore the hook: %v, mode %v -> %v\n%s", err, fiBefore.Mode(), fiAfter.Mode(), after)
	}
	if _, err := os.Stat(filepath.Join(hooks, "pre-push.ralph-gate-chained")); !os.IsNotExist(err) {
		t.Errorf("the chained copy is left behind: %v", err)
	}
	if res := runGate(t, p.dir, "", "hook", "uninstall"); res.code != 2 || !strings.Contains(res.stderr, "not ralph-gate's hook") {
		t.Errorf("uninstall of the team's hook: exit %d\n%s", res.code, res.stderr)
	}
}

func TestHookHooksPathAndForce(t *testing.T) {
	t.Parallel()
	p := newPushed(t, false)
	p.git("config", "core.hooksPath", ".githooks")
	dir := filepath.Join(p.dir, ".githooks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	foreign := "#!/bin/sh\nexit 1\n"
	writeScript(t, filepath.Join(dir, "pre-push"), foreign)
	res := runGate(t, p.dir, "", "hook", "install", "--force")
	if res.code != 0 || !strings.Contains(res.stdout, filepath.Join(dir, "pre-push")) || !strings.Contains(res.stdout, "pre-push.ralph-gate-backup") {
		t.Fatalf("install --force: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	// The replaced hook (which refuses every push) no longer runs.
	p.write("notes.go", "package calc\n")
	if res := p.push(nil, "origin", "main"); res.code != 0 {
		t.Errorf("push under core.hooksPath: exit %d\n%s", res.code, res.stderr)
	}
	p.write("calc_test.go", calcTestNoSub)
	p.commit("drop TestSub")
	if res := p.push(nil, "origin", "main"); res.code == 0 || !strings.Contains(res.stderr, "TestSub") {
		t.Errorf("the hook under core.hooksPath did not run: exit %d\n%s", res.code, res.stderr)
	}
	if res := runGate(t, p.dir, "", "hook", "uninstall"); res.code != 0 {
		t.Fatalf("uninstall: exit %d\n%s", res.code, res.stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "pre-push")); string(got) != foreign {
		t.Errorf("the backup was not put back: %q", got)
	}
}

// runHookEnv runs ralph-gate with extra environment (the pre-commit
// framework's variables) and the given standard input.
func runHookEnv(t *testing.T, dir, stdin string, env []string, args ...string) result {
	t.Helper()
	return runGateEnv(t, dir, stdin, pushEnv(env...), args...)
}

func TestHookPrePushInputs(t *testing.T) {
	t.Parallel()
	p := newPushed(t, false)
	base := p.remoteRef("main")
	p.write("calc_test.go", calcTestNoSub)
	head := p.commit("drop TestSub")

	// The pre-commit framework's variables, with no ref lines on stdin.
	env := []string{"PRE_COMMIT_FROM_REF=" + base, "PRE_COMMIT_TO_REF=" + head, "PRE_COMMIT_REMOTE_NAME=origin",
		"PRE_COMMIT_LOCAL_BRANCH=refs/heads/main", "PRE_COMMIT_REMOTE_BRANCH=refs/heads/main"}
	res := runHookEnv(t, p.dir, "", env, "hook", "pre-push")
	if res.code != 1 || !strings.Contains(res.stderr, "TestSub") || !strings.Contains(res.stderr, "refs/heads/main") {
		t.Errorf("pre-commit variables: exit %d\n%s", res.code, res.stderr)
	}
	// --fail-on none lets it through; the finding is still named.
	res = runHookEnv(t, p.dir, "", env, "hook", "pre-push", "--fail-on", "none")
	if res.code != 0 || !strings.Contains(res.stderr, "TestSub") {
		t.Errorf("--fail-on none: exit %d\n%s", res.code, res.stderr)
	}
	// Nothing on stdin and no variables: nothing to check.
	if res := runHookEnv(t, p.dir, "", nil, "hook", "pre-push", "origin", "url"); res.code != 0 || !strings.Contains(res.stderr, "nothing to check") {
		t.Errorf("empty input: exit %d\n%s", res.code, res.stderr)
	}
	for _, tc := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"malformed ref line", "refs/heads/main " + head + "\n", []string{"hook", "pre-push", "origin", "url"}, "standard input line 1: fewer than 4 fields"},
		{"unknown pushed object", "refs/heads/main " + strings.Repeat("9", 40) + " refs/heads/main " + base + "\n", []string{"hook", "pre-push", "origin", "url"}, "refs/heads/main: unknown revision"},
		{"bad fail-on", "", []string{"hook", "pre-push", "--fail-on", "extreme"}, "--fail-on"},
		{"unknown subcommand", "", []string{"hook", "instal"}, `unknown subcommand "instal"`},
		{"unknown flag", "", []string{"hook", "install", "--frobnicate"}, "frobnicate"},
		{"not a repository", "", []string{"hook", "install", "--repo", t.TempDir()}, "not a git repository"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runHookEnv(t, p.dir, tc.stdin, nil, tc.args...)
			lines := strings.Split(strings.TrimSpace(res.stderr), "\n")
			if res.code != 2 || len(lines) != 1 || !strings.Contains(lines[0], tc.want) || strings.Contains(res.stderr, "goroutine") {
				t.Errorf("exit %d, stderr %q; want 2 and one line containing %q", res.code, res.stderr, tc.want)
			}
		})
	}
	if res := runGate(t, p.dir, "", "help", "hook"); res.code != 0 || !strings.Contains(res.stdout, "ralph-gate hook install") {
		t.Errorf("help hook: exit %d\n%s", res.code, res.stdout)
	}
}

func TestHookConfigFromBase(t *testing.T) {
	t.Parallel()
	p := newPushed(t, true)
	p.write(".ralph-gate.yml", "fail_on: critical\n")
	p.commit("gate config")
	// Changing the gate's own config is itself a finding: a person pushes it.
	if res := p.push(nil, "origin", "main"); res.code == 0 || !strings.Contains(res.stderr, "validation_bypass") {
		t.Fatalf("config push: exit %d\n%s", res.code, res.stderr)
	}
	if res := p.push([]string{"RALPH_GATE_SKIP=1"}, "origin", "main"); res.code != 0 {
		t.Fatalf("config push: exit %d\n%s", res.code, res.stderr)
	}
	// A skip is high: below fail_on critical at the base, it warns.
	p.write("calc_test.go", strings.Replace(calcTest, "func TestSub(t *testing.T) {\n", "func TestSub(t *testing.T) {\n\tt.Skip(\"later\")\n", 1))
	p.commit("skip TestSub")
	res := p.push(nil, "origin", "main")
	if res.code != 0 || !strings.Contains(res.stderr, "test_skipping") || !strings.Contains(res.stderr, "does not block") {
		t.Errorf("skip under fail_on critical: exit %d\n%s", res.code, res.stderr)
	}
	// A malformed config at the base: exit 2 naming the file, with the bypass.
	p.write(".ralph-gate.yml", "fail_on: critical\nfial_on: low\n")
	p.commit("typo")
	if res := p.push([]string{"RALPH_GATE_SKIP=1"}, "origin", "main"); res.code != 0 {
		t.Fatalf("skip push: %d\n%s", res.code, res.stderr)
	}
	p.write("notes.go", "package calc\n")
	p.commit("notes")
	res = p.push(nil, "origin", "main")
	if res.code == 0 || !strings.Contains(res.stderr, ".ralph-gate.yml") || !strings.Contains(res.stderr, "line 2") || !strings.Contains(res.stderr, "--no-verify") {
		t.Errorf("malformed config: exit %d\n%s", res.code, res.stderr)
	}
}

func TestHookCollect(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go test at both ends of the push")
	}
	p := newPushed(t, true)
	p.write(".ralph-gate.yml", "hook:\n  collect: true\n")
	p.commit("measure on push")
	if res := p.push([]string{"RALPH_GATE_SKIP=1"}, "origin", "main"); res.code != 0 {
		t.Fatalf("config push: exit %d\n%s", res.code, res.stderr)
	}
	p.write("calc_test.go", calcTestNoSub)
	p.commit("drop TestSub")
	res := p.push(nil, "origin", "main")
	if res.code == 0 || !strings.Contains(res.stderr, "TestSub") || !strings.Contains(res.stderr, "ralph-gate compare ") {
		t.Errorf("collect: exit %d\n%s", res.code, res.stderr)
	}
}

// TestReleaseScript runs scripts/release.sh for this machine's target only
// (TARGETS): the six-target build takes minutes, too long for every run.
func TestReleaseScript(t *testing.T) {
	slow(t)
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a release binary")
	}
	target := runtime.GOOS + "/" + runtime.GOARCH
	switch target {
	case "linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64":
	default:
		t.Skipf("the test runs the archive's binary, and %s has no tar.gz archive", target)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	out := filepath.Join(t.TempDir(), "dist")
	cmd := exec.Command("bash", filepath.Join("..", "..", "scripts", "release.sh"), "v1.2.3", out)
	cmd.Env = append(os.Environ(), "TARGETS="+target)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("release.sh: %v\n%s", err, b)
	}
	name := "ralph-gate_1.2.3_" + runtime.GOOS + "_" + runtime.GOARCH + ".tar.gz"
	data, err := os.ReadFile(filepath.Join(out, name))
	if err != nil {
		t.Fatalf("no archive %s: %v", name, err)
	}
	sums, err := os.ReadFile(filepath.Join(out, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if want := hex.EncodeToString(sum[:]) + "  " + name + "\n"; string(sums) != want {
		t.Errorf("checksums.txt = %q, want %q", sums, want)
	}
	// The archive holds the binary (and the README) at its root; the binary
	// knows its version.
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var names []string
	bin := filepath.Join(t.TempDir(), "ralph-gate")
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		if h.Name == "ralph-gate" {
			if h.Mode&0o111 == 0 {
				t.Errorf("ralph-gate is not executable in the archive: %o", h.Mode)
			}
			writeExecutable(t, bin, func(f *os.File) error {
				_, err := io.Copy(f, tr)
				return err
			})
		}
	}
	want := []string{"ralph-gate"}
	for _, extra := range []string{"LICENSE", "README.md"} {
		if _, err := os.Stat(filepath.Join("..", "..", extra)); err == nil {
			want = append(want, extra)
		}
	}
	sort.Strings(names)
	sort.Strings(want)
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("archive holds %v, want %v", names, want)
	}
	got := runCmd(t, t.TempDir(), bin, "version")
	if !strings.HasPrefix(got, "ralph-gate 1.2.3\n") {
		t.Errorf("version = %q", got)
	}
	// Built from this checkout: the release says at which revision.
	if rev, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil && !strings.Contains(got, "  revision   "+strings.TrimSpace(string(rev))) {
		t.Errorf("version = %q, want the revision %s", got, rev)
	}
}

// TestHookInstallTrackedHooksDir: a core.hooksPath inside the work tree with
// tracked files is the change's to edit: install refuses it (exit 2) unless
// --force, which warns.
func TestHookInstallTrackedHooksDir(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write(".githooks/post-commit", "#!/bin/sh\n")
	r.commit("shared hooks")
	r.git("config", "core.hooksPath", ".githooks")
	res := runGate(t, r.dir, "", "hook", "install")
	if res.code != 2 || !strings.Contains(res.stderr, "tracked in the repository") {
		t.Errorf("install into a tracked hooks directory: exit %d %s", res.code, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(r.dir, ".githooks", "pre-push")); err == nil {
		t.Error("the hook was installed anyway")
	}
	res = runGate(t, r.dir, "", "hook", "install", "--force")
	if res.code != 0 || !strings.Contains(res.stderr, "warning") {
		t.Errorf("install --force: exit %d %s", res.code, res.stderr)
	}
}
