package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/agent/fakemodel"
	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

var update = flag.Bool("update", false, "rewrite golden files")

// binary is the ralph-gate built once for all end-to-end tests.
var binary string

// serveMCP serves fakemodel's MCP tools on standard input and output until
// the client closes them: 0 when it did, 1 on an error.
func serveMCP() int {
	if err := fakemodel.ServeMCP(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mcp server:", err)
		return 1
	}
	return 0
}

// reusedBinary names the ralph-gate binary a test run again in a network
// namespace uses (TestMain builds none then).
const reusedBinary = "RALPH_GATE_E2E_BINARY"

// mcpServerEnv makes the test binary an MCP server (fakemodel.ServeMCP)
// when a client starts it with this variable set.
const mcpServerEnv = "RALPH_GATE_E2E_MCP"

func TestMain(m *testing.M) {
	if os.Getenv(mcpServerEnv) != "" {
		// A client started this binary as its MCP server: it serves, runs
		// no test, and exits with how the serving ended.
		os.Exit(serveMCP())
	}
	flag.Parse()
	if b := os.Getenv(reusedBinary); b != "" {
		// A test run again in a network namespace (isolated) uses the
		// binary its parent built.
		binary = b
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "ralph-gate-e2e")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "ralph-gate")
	if runtime.GOOS == "windows" {
		binary += ".exe"
	}
	// -buildvcs=auto, whatever GOFLAGS says: version prints the revision.
	build := exec.Command("go", "build", "-buildvcs=auto", "-o", binary, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic("build ralph-gate: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// repo is a real git repository in a temp dir, driven through the git CLI.
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	return gitIn(r.t, r.dir, args...)
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return testgit.Run(t, dir, args...)
}

func (r *repo) write(path, content string) {
	r.t.Helper()
	testgit.Write(r.t, r.dir, path, content)
}

func (r *repo) remove(path string) {
	r.t.Helper()
	if err := os.Remove(filepath.Join(r.dir, path)); err != nil {
		r.t.Fatal(err)
	}
}

// commit stages everything and commits; it returns the new sha.
func (r *repo) commit(msg string) string {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

type result struct {
	code           int
	stdout, stderr string
}

func runGate(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	return runGateEnv(t, dir, stdin, append(os.Environ(), "NO_COLOR=1"), args...)
}

// runGateEnv runs the binary in dir with this environment and standard input
// (a pipe; "" for an empty one).
func runGateEnv(t *testing.T, dir, stdin string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin) // a pipe, as from git or a shell loop
	return execResult(t, cmd)
}

// execResult runs a command and returns its exit code and output; only a
// failure to run it at all fails the test.
func execResult(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, out.String(), errb.String()}
}

type jsonReport struct {
	Schema  string `json:"schema"`
	Base    string `json:"base"`
	Head    string `json:"head"`
	Verdict string `json:"verdict"`
	Commits []struct {
		SHA      string `json:"sha"`
		Subject  string `json:"subject"`
		Findings int    `json:"findings"`
	} `json:"commits"`
	Findings []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Severity string `json:"severity"`
		File     string `json:"file"`
		Line     int    `json:"line"`
		Test     string `json:"test"`
		Symbol   string `json:"symbol"`
		Commit   string `json:"commit"`
		Net      bool   `json:"net"`
		Message  string `json:"message"`
		Rule     string `json:"rule"`
	} `json:"findings"`
}

func parseReport(t *testing.T, s string) jsonReport {
	t.Helper()
	var r jsonReport
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, s)
	}
	return r
}

const calcSrc = `package calc

// Add adds.
func Add(a, b int) int { return a + b }

// Sub subtracts.
func Sub(a, b int) int { return a - b }
`

const calcTest = `package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestSub(t *testing.T) {
	if got := Sub(5, 3); got != 2 {
		t.Errorf("Sub(5, 3) = %d, want 2", got)
	}
}
`

const calcTestNoSub = `package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}
`

func goModule(t *testing.T) *repo {
	r := newRepo(t)
	r.write("go.mod", "module example.com/calc\n\ngo 1.26\n")
	r.write("calc.go", calcSrc)
	r.write("calc_test.go", calcTest)
	r.commit("base")
	return r
}

func TestAnalyzeBlocksDeletedTest(t *testing.T) {
	t.Parallel()
	r := goModule(t)
	base := r.git("rev-parse", "HEAD")
	r.write("calc.go", calcSrc+"\n// Mul multiplies.\nfunc Mul(a, b int) int { return a * b }\n")
	c1 := r.commit("iteration 1: add Mul")
	r.write("calc_test.go", calcTestNoSub)
	c2 := r.commit("iteration 2: make the tests pass")
	statusBefore := r.git("status", "--porcelain")

	res := runGate(t, r.dir, "", "analyze", "--format", "json", base, "HEAD")
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:%s\nstderr:%s", res.code, res.stdout, res.stderr)
	}
	rep := parseReport(t, res.stdout)
	if rep.Schema != "ralph-gate/report/v1" || rep.Base != base || rep.Head != c2 || rep.Verdict != "block" {
		t.Errorf("header = %+v", rep)
	}
	if len(rep.Commits) != 2 || rep.Commits[0].SHA != c1 || rep.Commits[1].SHA != c2 || rep.Commits[1].Findings != 1 {
		t.Errorf("commits = %+v", rep.Commits)
	}
	if len(rep.Findings) != 1 {
		t.Fatalf("findings = %+v", rep.Findings)
	}
	f := rep.Findings[0]
	if f.Type != "test_deletion" || f.Severity != "critical" || f.File != "calc_test.go" || f.Test != "TestSub" || f.Commit != c2 || !f.Net || f.Line != 11 {
		t.Errorf("finding = %+v", f)
	}
	if after := r.git("status", "--porcelain"); after != statusBefore {
		t.Errorf("analyze changed the working tree: %q -> %q", statusBefore, after)
	}

	// The same finding keeps its id across runs.
	again := parseReport(t, runGate(t, r.dir, "", "analyze", "--format", "json", base).stdout)
	if len(again.Findings) != 1 || again.Findings[0].ID != f.ID {
		t.Errorf("id not stable: %+v vs %s", again.Findings, f.ID)
	}

	// --fail-on critical still blocks; none never does.
	if res := runGate(t, r.dir, "", "analyze", "--fail-on", "none", base); res.code != 0 {
		t.Errorf("--fail-on none: exit %d", res.code)
	}
}

func TestAnalyzeTransientFindingDoesNotBlock(t *testing.T) {
	t.Parallel()
	r := goModule(t)
	base := r.git("rev-parse", "HEAD")
	r.write("calc_test.go", calcTestNoSub)
	c1 := r.commit("delete TestSub")
	r.write("calc_test.go", calcTest)
	r.commit("restore TestSub")

	res := runGate(t, r.dir, "", "analyze", "--format", "json", base, "HEAD")
	if res.code != 0 {
		t.Fatalf("exit %d, want 0\n%s%s", res.code, res.stdout, res.stderr)
	}
	rep := parseReport(t, res.stdout)
	if len(rep.Findings) != 1 || rep.Findings[0].Net || rep.Findings[0].Commit != c1 || rep.Verdict != "pass" {
		t.Errorf("want one transient finding from %s; got verdict %s %+v", c1, rep.Verdict, rep.Findings)
	}
}

func TestAnalyzeInputErrors(t *testing.T) {
	t.Parallel()
	r := goModule(t)
	first := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "-b", "side")
	r.write("side.go", "package calc\n")
	side := r.commit("side")
	r.git("checkout", "-q", "main")
	r.write("main.go", "package calc\n")
	r.commit("main")
	notRepo := t.TempDir()

	for _, tc := range []struct {
		name string
		dir  string
		args []string
		want string
	}{
		{"unknown ref", r.dir, []string{"analyze", "no-such-branch", "HEAD"}, `unknown revision "no-such-branch"`},
		{"not a repository", notRepo, []string{"analyze", "HEAD~1"}, "not a git repository"},
		{"base not an ancestor", r.dir, []string{"analyze", side, "main"}, "not an ancestor"},
		{"bad format", r.dir, []string{"analyze", "--format", "yaml", first}, "--format"},
		{"bad fail-on", r.dir, []string{"analyze", "--fail-on", "extreme", first}, "--fail-on"},
		{"too many args", r.dir, []string{"analyze", "a", "b", "c"}, "too many arguments"},
		{"unknown flag", r.dir, []string{"analyze", "--frobnicate"}, "frobnicate"},
		{"missing patch file", r.dir, []string{"analyze", "--patch", "nope.diff"}, "nope.diff"},
		{"not a patch", r.dir, []string{"analyze", "--patch", "calc.go"}, "calc.go: no file diffs found"},
		{"unknown command", r.dir, []string{"analyse"}, `unknown command "analyse"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runGate(t, tc.dir, "", tc.args...)
			if res.code != 2 {
				t.Errorf("exit %d, want 2\nstderr: %s", res.code, res.stderr)
			}
			lines := strings.Split(strings.TrimSpace(res.stderr), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], tc.want) {
				t.Errorf("stderr = %q, want one line containing %q", res.stderr, tc.want)
			}
			if strings.Contains(res.stderr, "panic") || strings.Contains(res.stderr, "goroutine") {
				t.Errorf("stack trace on stderr: %s", res.stderr)
			}
		})
	}
}

func TestAnalyzeShallowClone(t *testing.T) {
	t.Parallel()
	r := goModule(t)
	base := r.git("rev-parse", "HEAD")
	for i := 0; i < 3; i++ {
		r.write("calc.go", calcSrc+strings.Repeat("\n", i+1))
		r.commit("more")
	}
	clone := filepath.Join(t.TempDir(), "clone")
	gitIn(t, r.dir, "clone", "-q", "--depth", "1", "file://"+r.dir, clone)
	res := runGate(t, clone, "", "analyze", base, "HEAD")
	if res.code != 2 || !strings.Contains(res.stderr, "fetch-depth: 0") {
		t.Errorf("exit %d, stderr %q; want 2 and the fetch-depth advice", res.code, res.stderr)
	}
}

func TestAnalyzeDefaultBase(t *testing.T) {
	t.Parallel()
	origin := goModule(t)
	clone := filepath.Join(t.TempDir(), "clone")
	gitIn(t, origin.dir, "clone", "-q", "file://"+origin.dir, clone)
	c := &repo{t: t, dir: clone}
	c.git("checkout", "-q", "-b", "agent/fix")
	c.write("calc_test.go", calcTestNoSub)
	c.commit("agent: simplify tests")
	res := runGate(t, clone, "", "analyze", "--format", "json")
	if res.code != 1 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	rep := parseReport(t, res.stdout)
	if rep.Base != origin.git("rev-parse", "HEAD") || len(rep.Commits) != 1 {
		t.Errorf("default base = %s, commits %d", rep.Base, len(rep.Commits))
	}
}

func TestAnalyzeConfigFromBase(t *testing.T) {
	t.Parallel()
	r := goModule(t)
	r.write(".ralph-gate.yml", "fail_on: critical\nexceptions:\n  - type: assertion_weakening\n    path: \"legacy/**\"\n    reason: legacy checks replaced by golden files\n")
	base := r.commit("gate config")
	// A high finding (a skip) does not block under fail_on: critical.
	r.write("calc_test.go", strings.Replace(calcTest, "func TestSub(t *testing.T) {\n", "func TestSub(t *testing.T) {\n\tt.Skip(\"later\")\n", 1))
	r.commit("skip")
	if res := runGate(t, r.dir, "", "analyze", base); res.code != 0 {
		t.Errorf("fail_on: critical from BASE: exit %d\n%s", res.code, res.stdout)
	}
	// The agent loosening the config in HEAD changes nothing, and is itself reported.
	r.write(".ralph-gate.yml", "fail_on: none\n")
	r.write("calc_test.go", calcTestNoSub)
	r.commit("loosen")
	res := runGate(t, r.dir, "", "analyze", "--format", "json", base)
	if res.code != 1 {
		t.Fatalf("exit %d, want 1 (config is read from BASE)\n%s", res.code, res.stdout)
	}
	rep := parseReport(t, res.stdout)
	seen := map[string]bool{}
	for _, f := range rep.Findings {
		seen[f.Type+"/"+f.Rule] = true
	}
	if !seen["validation_bypass/gate-config-changed"] || !seen["test_deletion/test-deleted"] {
		t.Errorf("findings = %+v", rep.Findings)
	}

	// A malformed config at BASE is an input error naming the file and line.
	r.write(".ralph-gate.yml", "fail_on: high\nfial_on: low\n")
	bad := r.commit("typo")
	res = runGate(t, r.dir, "", "analyze", bad, "HEAD")
	if res.code != 2 || !strings.Contains(res.stderr, ".ralph-gate.yml") || !strings.Contains(res.stderr, "line 2") {
		t.Errorf("malformed config: exit %d, stderr %q", res.code, res.stderr)
	}
}

func TestAnalyzePatch(t *testing.T) {
	t.Parallel()
	r := goModule(t)
	r.write("calc_test.go", calcTestNoSub)
	diff := r.git("diff")
	res := runGate(t, r.dir, diff+"\n", "analyze", "--format", "json", "--patch", "-")
	if res.code != 1 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	rep := parseReport(t, res.stdout)
	if len(rep.Findings) != 1 || rep.Findings[0].Test != "TestSub" || rep.Findings[0].Type != "test_deletion" {
		t.Errorf("findings = %+v", rep.Findings)
	}
	// Outside any repository too.
	res = runGate(t, t.TempDir(), diff+"\n", "analyze", "--patch", "-")
	if res.code != 1 || !strings.Contains(res.stdout, "TestSub") {
		t.Errorf("outside a repo: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	// A clean patch passes.
	r.write("calc_test.go", calcTest+"\nfunc TestMore(t *testing.T) {\n\tif Add(1, 1) != 2 {\n\t\tt.Fatal(\"Add\")\n\t}\n}\n")
	if res := runGate(t, r.dir, r.git("diff")+"\n", "analyze", "--patch", "-"); res.code != 0 {
		t.Errorf("clean patch: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

func TestAnalyzeFormats(t *testing.T) {
	t.Parallel()
	r := goModule(t)
	base := r.git("rev-parse", "HEAD")
	r.write("calc_test.go", calcTestNoSub)
	r.commit("delete")
	for _, format := range []string{"text", "json", "markdown", "sarif", "github"} {
		t.Run(format, func(t *testing.T) {
			res := runGate(t, r.dir, "", "analyze", "--format", format, base)
			if res.code != 1 || !strings.Contains(res.stdout, "TestSub") {
				t.Errorf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
			}
			if strings.Contains(res.stdout, "\x1b[") {
				t.Error("colour escapes in output that is not a terminal")
			}
		})
	}
}

func TestHelpAndVersion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"help.txt", []string{"--help"}},
		{"help-analyze.txt", []string{"help", "analyze"}},
		{"help-run.txt", []string{"help", "run"}},
		{"help-approve.txt", []string{"help", "approve"}},
		{"help-abort.txt", []string{"help", "abort"}},
		{"help-record.txt", []string{"help", "record"}},
	} {
		res := runGate(t, t.TempDir(), "", tc.args...)
		if res.code != 0 {
			t.Fatalf("%v: exit %d", tc.args, res.code)
		}
		golden := filepath.Join("testdata", tc.golden)
		if *update {
			if err := os.WriteFile(golden, []byte(res.stdout), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if string(want) != res.stdout {
			t.Errorf("%v output differs from %s (run with -update)\n%s", tc.args, golden, res.stdout)
		}
	}
	if res := runGate(t, t.TempDir(), "", "analyze", "-h"); res.code != 0 || !strings.Contains(res.stdout, "--patch") {
		t.Errorf("analyze -h: exit %d", res.code)
	}
	res := runGate(t, t.TempDir(), "", "version")
	if res.code != 0 || !strings.HasPrefix(res.stdout, "ralph-gate ") || !strings.Contains(res.stdout, "  go         go1.") {
		t.Errorf("version: %d %q", res.code, res.stdout)
	}
	// Built from this repository's checkout: the revision it was built at.
	if rev, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
		if want := "  revision   " + strings.TrimSpace(string(rev)); !strings.Contains(res.stdout, want) {
			t.Errorf("version does not give the revision (%s):\n%s", want, res.stdout)
		}
	}
	if res := runGate(t, t.TempDir(), ""); res.code != 2 {
		t.Errorf("no command: exit %d, want 2", res.code)
	}
}

// A test file the analyzer cannot read is evidence missing: each is an
// unverified finding naming the file and why, never a note and a pass.
func TestAnalyzeUnreadableTestFilesAreUnverified(t *testing.T) {
	t.Parallel()
	r := goModule(t)
	base := r.git("rev-parse", "HEAD")
	big := "package calc\n\nvar blob = `" + strings.Repeat("x", 5<<20) + "`\n"
	r.write("big_test.go", big)
	r.write("logo_test.go", "package calc\x00\x01binary")
	if err := os.Symlink("calc_test.go", filepath.Join(r.dir, "link_test.go")); err != nil {
		t.Fatal(err)
	}
	r.commit("odd files")
	res := runGate(t, r.dir, "", "analyze", "--format", "json", base)
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	var rep struct {
		Findings []struct{ Type, Severity, File, Message string } `json:"findings"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range rep.Findings {
		if f.Type == "unverified" && f.Severity == "high" {
			got[f.File] = f.Message
		}
	}
	for file, want := range map[string]string{"big_test.go": "4 MiB", "logo_test.go": "binary", "link_test.go": "symbolic link"} {
		if !strings.Contains(got[file], want) {
			t.Errorf("unverified finding for %s = %q, want it to mention %q (all: %v)", file, got[file], want, got)
		}
	}
}

// runCmd runs a command and returns its standard output; a non-zero exit is
// fine (failing tests), a command that cannot start is not.
func runCmd(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("%s: %v", name, err)
	}
	return string(out)
}

// writeExecutable writes a file the test then runs, with no fork while it is
// open for writing: a child a parallel test forks in that moment holds the
// descriptor until its own exec, and running the file then fails with "text
// file busy" (ETXTBSY). Forks take syscall.ForkLock for writing.
func writeExecutable(t *testing.T, path string, write func(*os.File) error) {
	t.Helper()
	syscall.ForkLock.RLock()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err == nil {
		err = write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
}

// writeScript is writeExecutable with the file's content.
func writeScript(t *testing.T, path, content string) {
	t.Helper()
	writeExecutable(t, path, func(f *os.File) error {
		_, err := f.WriteString(content)
		return err
	})
}

// missingTool ends a test whose tool is not installed: it skips, unless the
// environment variable require is set (.ci/run sets it after installing the
// tool), where it fails: CI never skips a test silently.
func missingTool(t *testing.T, require, msg string) {
	t.Helper()
	if os.Getenv(require) != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// slow marks an end-to-end case of several seconds: go test -short leaves it
// out (the quick loop while changing code), go test ./... runs it, and so
// does .ci/run.
func slow(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("a slow end-to-end case: go test ./... (without -short) runs it, as .ci/run does")
	}
}
