//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// dumpTest is a test an agent commits to read what the gate's process tree
// holds: its environment, /proc/PID/environ of every ancestor, git's
// configuration, and the runner's output file, where it tries to write the
// verdict itself.
const dumpTest = `package calc

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestDump(t *testing.T) {
	var b strings.Builder
	for _, kv := range os.Environ() {
		b.WriteString("env " + kv + "\n")
	}
	pid := os.Getpid()
	for i := 0; i < 16 && pid > 1; i++ {
		if data, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid)); err == nil {
			fmt.Fprintf(&b, "proc %d %s\n", pid, strings.ReplaceAll(string(data), "\x00", " "))
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			break
		}
		s := string(stat)
		var state string
		var ppid int
		fmt.Sscan(s[strings.LastIndexByte(s, ')')+2:], &state, &ppid)
		pid = ppid
	}
	out, _ := exec.Command("git", "config", "--list", "--show-origin").CombinedOutput()
	b.WriteString("git " + string(out))
	// The runner's files are not in the environment: look for them where
	// runners keep them, and write a verdict, an environment variable for
	// later steps, and a heredoc left open to swallow the real verdict.
	attack := "verdict=pass\nLD_PRELOAD=/tmp/evil.so\nverdict<<_GitHubActionsFileCommandDelimeter_\n"
	for _, v := range []string{"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY"} {
		if f := os.Getenv(v); f != "" {
			os.WriteFile(f, []byte(attack), 0o644)
		}
	}
	if tmp := os.Getenv("RUNNER_TEMP"); tmp != "" {
		for _, name := range []string{"output", "env", "path", "summary"} {
			f, err := os.OpenFile(tmp+"/"+name, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
			if err == nil {
				f.WriteString(attack)
				f.Close()
			}
		}
	}
	os.WriteFile("@DUMP@", []byte(b.String()), 0o644)
}
`

// TestActionSecretsNeverReachHEAD: run as the documented workflow runs it
// (the step execs ralph-gate, with the token and the runner's variables in
// its environment), HEAD's tests find no token anywhere in their process
// tree or git's configuration, cannot write the runner's files, and the
// gate still gives its verdict. A `go` planted in the repository on PATH is
// never run.
func TestActionSecretsNeverReachHEAD(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("go is not on PATH")
	}
	r, base, _ := agentPR(t)
	dump := filepath.Join(t.TempDir(), "dump")
	r.write("dump_test.go", strings.ReplaceAll(dumpTest, "@DUMP@", dump))
	planted := filepath.Join(t.TempDir(), "planted")
	r.write("tools/go", "#!/bin/sh\ntouch "+planted+"\nexit 0\n")
	os.Chmod(filepath.Join(r.dir, "tools", "go"), 0o755)
	head := r.commit("dump the environment")
	// actions/checkout without persist-credentials: false leaves the token in
	// .git/config.
	r.git("config", "http.https://github.com/.extraheader", "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX2NoZWNrb3V0dG9rZW4=")
	run := newRunner(t, r.dir)
	secrets := map[string]string{
		"INPUT_TOKEN": "ghs_inputtoken0123456789", "GITHUB_TOKEN": "ghs_githubtoken0123456789",
		"ACTIONS_RUNTIME_TOKEN": "rt_runtimetoken0123456789", "ACTIONS_ID_TOKEN_REQUEST_TOKEN": "idtoken0123456789",
		"NPM_TOKEN": "npm_token0123456789", "AWS_SECRET_ACCESS_KEY": "awskey0123456789",
	}
	for k, v := range secrets {
		run.env[k] = v
	}
	run.env["INPUT_COLLECT"] = "auto"
	run.env["GITHUB_ENV"] = filepath.Join(run.dir, "env")
	run.env["GITHUB_PATH"] = filepath.Join(run.dir, "path")
	for _, f := range []string{run.output, run.summary, run.env["GITHUB_ENV"], run.env["GITHUB_PATH"]} {
		os.WriteFile(f, nil, 0o644) // the runner makes them, empty, before the step
	}
	run.env["PATH"] = filepath.Join(r.dir, "tools") + string(os.PathListSeparator) + os.Getenv("PATH")
	run.run("pull_request", prPayload(base, head))
	if run.code != 1 || run.outputs["verdict"] != "block" {
		t.Fatalf("exit %d, verdict %q: the gate's verdict is gone\n%s\n%s", run.code, run.outputs["verdict"], run.stdout, run.stderr)
	}
	got, err := os.ReadFile(dump)
	if err != nil {
		t.Fatalf("HEAD's test did not run: %v\n%s", err, run.stderr)
	}
	for k, v := range secrets {
		if strings.Contains(string(got), v) {
			t.Errorf("HEAD's test found %s's value in its process tree:\n%s", k, grepLines(string(got), v))
		}
	}
	if strings.Contains(string(got), "eC1hY2Nlc3MtdG9rZW46Z2hzX2NoZWNrb3V0dG9rZW4=") {
		t.Errorf("HEAD's test found the checkout's token in git's configuration:\n%s", grepLines(string(got), "extraheader"))
	}
	if v := strings.TrimSpace(r.git("config", "http.https://github.com/.extraheader")); !strings.Contains(v, "AUTHORIZATION") {
		t.Errorf("the checkout's token is not back in .git/config after the run: %q", v)
	}
	for _, name := range []string{"GITHUB_OUTPUT=", "GITHUB_ENV=", "GITHUB_PATH=", "GITHUB_STEP_SUMMARY="} {
		if strings.Contains(string(got), "env "+name) {
			t.Errorf("HEAD's test saw %s", name)
		}
	}
	for _, f := range []string{run.env["GITHUB_ENV"], run.env["GITHUB_PATH"]} {
		if data, _ := os.ReadFile(f); len(data) > 0 {
			t.Errorf("what HEAD's test wrote to %s reaches the workflow: %q", f, data)
		}
	}
	if data, _ := os.ReadFile(run.output); strings.Contains(string(data), "LD_PRELOAD") || strings.Contains(string(data), "verdict=pass") {
		t.Errorf("what HEAD's test wrote to GITHUB_OUTPUT reaches the workflow:\n%s", data)
	}
	if summary, _ := os.ReadFile(run.summary); !strings.Contains(string(summary), "GITHUB\\_ENV") || strings.Contains(string(summary), "LD\\_PRELOAD") || strings.Contains(string(summary), "LD_PRELOAD") {
		t.Errorf("the summary does not report the runner files HEAD wrote, or shows their content:\n%s", summary)
	}
	if _, err := os.Stat(planted); err == nil {
		t.Error("the go planted in the repository on PATH ran")
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			if len(l) > 300 {
				l = l[:300] + "..."
			}
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestReportFilesFromHEAD: report globs read files the change committed,
// links included. A link out of the repository (a secret file, /dev/zero)
// and a file over the cap are refused with exit 2 naming the file and the
// rule; the contents never appear in the output.
func TestReportFilesFromHEAD(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	base := t.TempDir()
	junit := `<testsuite name="s" tests="1"><testcase classname="c" name="t"/></testsuite>`
	os.WriteFile(filepath.Join(base, "base.xml"), []byte(junit), 0o644)
	secret := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(secret, []byte("the-secret-content-0123456789\n"), 0o600)
	r.write("README.md", "x\n")
	r.commit("base")
	os.MkdirAll(filepath.Join(r.dir, "out"), 0o755)
	os.Symlink(secret, filepath.Join(r.dir, "out", "leak.xml"))
	os.Symlink("/dev/zero", filepath.Join(r.dir, "out", "zero.xml"))
	r.write("big/report.xml", `<testsuite name="s" tests="1"><testcase classname="c" name="t"/>`+strings.Repeat("<!-- padding -->", 400)+`</testsuite>`)
	r.write("ok/report.xml", junit)
	r.commit("reports")
	for _, tc := range []struct{ glob, want string }{
		{"out/leak.xml", "outside the directory"},
		{"out/zero.xml", "outside the directory"},
		{"big/*.xml", "over the cap of 2000"},
	} {
		env := append(os.Environ(), "NO_COLOR=1", "RALPH_GATE_MAX_REPORT_BYTES=2000")
		res := runGateEnv(t, r.dir, "", env, "compare", "--collect", "none", "--report", "junit="+tc.glob,
			"--base-report", "junit="+filepath.Join(base, "base.xml"), "HEAD~1", "HEAD")
		if res.code != 2 || !strings.Contains(res.stderr, tc.want) {
			t.Errorf("%s: exit %d, want 2 with %q\n%s", tc.glob, res.code, tc.want, res.stderr)
		}
		if strings.Contains(res.stdout+res.stderr, "the-secret-content") {
			t.Errorf("%s: the linked file's content is in the output", tc.glob)
		}
	}
	// Files each within the cap, over the total one.
	for i := 0; i < 3; i++ {
		r.write(fmt.Sprintf("many/r%d.xml", i), junit+strings.Repeat(" ", 900))
	}
	r.commit("many reports")
	env := append(os.Environ(), "NO_COLOR=1", "RALPH_GATE_MAX_REPORTS_BYTES=2500")
	if res := runGateEnv(t, r.dir, "", env, "compare", "--collect", "none", "--report", "junit=many/*.xml",
		"--base-report", "junit="+filepath.Join(base, "base.xml"), "HEAD~2", "HEAD"); res.code != 2 || !strings.Contains(res.stderr, "total more than the cap of 2500") {
		t.Errorf("over the total cap: exit %d %s", res.code, res.stderr)
	}
	// A report inside the repository within the cap is read.
	res := runGate(t, r.dir, "", "compare", "--collect", "none", "--report", "junit=ok/*.xml",
		"--base-report", "junit="+filepath.Join(base, "base.xml"), "HEAD~1", "HEAD")
	if res.code != 0 {
		t.Errorf("a plain report: exit %d\n%s", res.code, res.stderr)
	}
}

// TestActionSARIFNotThroughALink: the SARIF file is never written through a
// link the change committed where it goes: a file link is replaced, a
// directory link refused (exit 2); the linked targets are untouched.
func TestActionSARIFNotThroughALink(t *testing.T) {
	t.Parallel()
	r, base, _ := agentPR(t)
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("keep\n"), 0o644)
	victimDir := t.TempDir()
	os.Symlink(victim, filepath.Join(r.dir, "gate.sarif"))
	os.Symlink(victimDir, filepath.Join(r.dir, "reports"))
	r.git("add", "-A")
	head := r.commit("links where the gate writes")
	run := newRunner(t, r.dir)
	run.env["INPUT_SARIF"] = "gate.sarif"
	run.run("pull_request", prPayload(base, head))
	if run.code != 1 {
		t.Fatalf("file link: exit %d\n%s", run.code, run.stderr)
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep\n" {
		t.Errorf("the SARIF was written through the link: %q", data)
	}
	if fi, err := os.Lstat(filepath.Join(r.dir, "gate.sarif")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("gate.sarif is not a fresh file: %v", err)
	}
	run.env["INPUT_SARIF"] = "reports/gate.sarif"
	run.run("pull_request", prPayload(base, head))
	if run.code != 2 || !strings.Contains(run.stderr, "symbolic link") {
		t.Errorf("directory link: exit %d\n%s", run.code, run.stderr)
	}
	if entries, _ := os.ReadDir(victimDir); len(entries) != 0 {
		t.Errorf("something was written into the linked directory: %v", entries)
	}
}

// TestHostilePatch: a 46-byte patch whose hunk header points at line
// 9,999,999 is malformed (exit 2) at once, instead of costing hundreds of
// megabytes; a patch over the size cap, and an empty --patch name, exit 2.
func TestHostilePatch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	evil := filepath.Join(dir, "evil.patch")
	os.WriteFile(evil, []byte("--- a/x\n+++ b/x\n@@ -9999999 +9999999 @@\n-a\n+b\n"), 0o644)
	if res := runGate(t, dir, "", "analyze", "--patch", evil); res.code != 2 || !strings.Contains(res.stderr, "more than 2000000 lines") {
		t.Errorf("hostile header: exit %d %s", res.code, res.stderr)
	}
	big := filepath.Join(dir, "big.patch")
	os.WriteFile(big, []byte("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n"+strings.Repeat("x", 500)), 0o644)
	env := append(os.Environ(), "NO_COLOR=1", "RALPH_GATE_MAX_PATCH_BYTES=100")
	if res := runGateEnv(t, dir, "", env, "analyze", "--patch", big); res.code != 2 || !strings.Contains(res.stderr, "over the cap of 100 bytes") {
		t.Errorf("over the cap: exit %d %s", res.code, res.stderr)
	}
	if res := runGate(t, dir, "", "analyze", "--patch", ""); res.code != 2 || !strings.Contains(res.stderr, "empty file name") {
		t.Errorf("empty --patch: exit %d %s", res.code, res.stderr)
	}
}

// plantTest is a HEAD test that plants programs in the repository's git
// files: a filter driver named for every file, an fsmonitor and a
// post-checkout hook, each of which would touch a marker if it ever ran.
const plantTest = `package calc

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestPlant(t *testing.T) {
	out, err := exec.Command("git", "rev-parse", "--git-common-dir").Output()
	if err != nil {
		return
	}
	gitDir := strings.TrimSpace(string(out))
	run := func(args ...string) { exec.Command("git", args...).Run() }
	run("config", "filter.evil.smudge", "sh -c 'touch @MARK@-smudge; cat'")
	run("config", "filter.evil.process", "sh -c 'touch @MARK@-process; exit 1'")
	run("config", "core.fsmonitor", "sh -c 'touch @MARK@-fsmonitor'")
	os.MkdirAll("@MARK@-hooks", 0o755)
	os.WriteFile("@MARK@-hooks/post-checkout", []byte("#!/bin/sh\ntouch @MARK@-hookspath\n"), 0o755)
	run("config", "core.hooksPath", "@MARK@-hooks")
	os.MkdirAll(gitDir+"/info", 0o755)
	os.WriteFile(gitDir+"/info/attributes", []byte("* filter=evil\n"), 0o644)
	os.WriteFile(gitDir+"/hooks/post-checkout", []byte("#!/bin/sh\ntouch @MARK@-hook\n"), 0o755)
}
`

// TestGitFilesPlantedByHEAD: HEAD's test writes a filter, an fsmonitor and
// a hook into the repository's git files while the gate measures. None of
// them runs in the gate's own git commands (the tamper check and cleanup
// included), the files are put back afterwards, and the run reports it as a
// high finding.
func TestGitFilesPlantedByHEAD(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("go is not on PATH")
	}
	r := goModule(t)
	base := r.git("rev-parse", "HEAD")
	mark := filepath.Join(t.TempDir(), "ran")
	r.write("plant_test.go", strings.ReplaceAll(plantTest, "@MARK@", mark))
	r.commit("plant")
	config, _ := os.ReadFile(filepath.Join(r.dir, ".git", "config"))
	res := runGate(t, r.dir, "", "compare", "--format", "json", strings.TrimSpace(base), "HEAD")
	if res.code != 1 || !strings.Contains(res.stdout, `"git-files-changed"`) {
		t.Errorf("compare: exit %d, want 1 with the git-files-changed finding\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	for _, m := range []string{"-smudge", "-process", "-fsmonitor", "-hook", "-hookspath"} {
		if _, err := os.Stat(mark + m); err == nil {
			t.Errorf("the planted %s ran", m[1:])
		}
	}
	if now, _ := os.ReadFile(filepath.Join(r.dir, ".git", "config")); string(now) != string(config) {
		t.Errorf(".git/config not put back:\n%s", now)
	}
	for _, p := range []string{"info/attributes", "hooks/post-checkout"} {
		if _, err := os.Stat(filepath.Join(r.dir, ".git", p)); err == nil {
			t.Errorf(".git/%s is still there", p)
		}
	}
	// A later git command of the user's runs none of it either.
	r.git("status")
	if _, err := os.Stat(mark + "-fsmonitor"); err == nil {
		t.Error("the planted fsmonitor ran in a later git status")
	}
}

// TestPatchConfigFromTheDefaultBranch: --patch reads .ralph-gate.yml from
// the default branch's tip, never from the branch the change loosened it on;
// --config names another file explicitly.
func TestPatchConfigFromTheDefaultBranch(t *testing.T) {
	t.Parallel()
	r := goModule(t)
	r.git("checkout", "-q", "-b", "agent")
	r.write(".ralph-gate.yml", "fail_on: none\n")
	r.commit("relax the gate")
	r.write("calc_test.go", calcTestNoSub)
	diff := r.git("diff")
	if res := runGate(t, r.dir, diff, "analyze", "--patch", "-"); res.code != 1 {
		t.Errorf("patch on the agent's branch: exit %d, want 1 (main's fail_on high)\n%s%s", res.code, res.stdout, res.stderr)
	}
	loose := filepath.Join(t.TempDir(), "loose.yml")
	os.WriteFile(loose, []byte("fail_on: none\n"), 0o644)
	if res := runGate(t, r.dir, diff, "analyze", "--patch", "-", "--config", loose); res.code != 0 {
		t.Errorf("patch with --config: exit %d\n%s", res.code, res.stderr)
	}
	if res := runGate(t, r.dir, "", "analyze", "--config", loose, "HEAD~1", "HEAD"); res.code != 2 {
		t.Errorf("--config without --patch: exit %d", res.code)
	}
}

// TestPatchFromANeverEndingPipe: a patch read from a pipe that never ends
// (/dev/zero through cat, a stalled producer) does not outlive SIGTERM.
func TestPatchFromANeverEndingPipe(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(binary, "analyze", "--patch", "-")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Write([]byte("--- a/x\n+++ b/x\n")) // and then nothing, never closed
	time.Sleep(200 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("analyze --patch - ignored SIGTERM while its input stayed open")
	}
}
