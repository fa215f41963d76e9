package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// actionlint finds actionlint (github.com/rhysd/actionlint, v1.7.12 in CI) on
// PATH or in GOPATH/bin. Without it the workflow checks skip, unless
// RALPH_GATE_REQUIRE_ACTIONLINT is set (.ci/run sets it after installing
// it), where they fail.
func actionlint(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("actionlint"); err == nil {
		return p
	}
	if gopath, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(gopath)), "bin", "actionlint")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	missingTool(t, "RALPH_GATE_REQUIRE_ACTIONLINT", "actionlint is not installed (go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12)")
	return ""
}

func lintWorkflows(t *testing.T, dir string) {
	t.Helper()
	bin := actionlint(t)
	files, _ := filepath.Glob(filepath.Join(dir, ".github", "workflows", "*.yml"))
	if len(files) != 2 {
		t.Fatalf("workflows written: %v, want 2", files)
	}
	cmd := exec.Command(bin, append([]string{"-no-color"}, files...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("actionlint: %v\n%s", err, out)
	}
}

// TestInit: init on a Go project writes the configuration and the two
// workflows (which pass actionlint) and installs the hook; a second run
// changes nothing; a file that differs is kept unless --force; the hook then
// refuses a push that deletes a test.
func TestInit(t *testing.T) {
	t.Parallel()
	p := newPushed(t, false)

	dry := runGate(t, p.dir, "", "init", "--hook", "--dry-run")
	if dry.code != 0 || !strings.Contains(dry.stdout, "--- .ralph-gate.yml") || !strings.Contains(dry.stdout, "nothing written") {
		t.Fatalf("init --dry-run: exit %d\n%s%s", dry.code, dry.stdout, dry.stderr)
	}
	if _, err := os.Stat(filepath.Join(p.dir, ".ralph-gate.yml")); err == nil {
		t.Fatal("--dry-run wrote the configuration")
	}

	res := runGate(t, p.dir, "", "init", "--hook")
	for _, want := range []string{"found Go", "wrote .ralph-gate.yml", "wrote .github/workflows/ralph-gate.yml",
		"wrote .github/workflows/ralph-gate-report.yml", "installed the pre-push hook", "git add .ralph-gate.yml", "git push --no-verify"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("init output lacks %q:\n%s", want, res.stdout)
		}
	}
	if res.code != 0 {
		t.Fatalf("init: exit %d\n%s", res.code, res.stderr)
	}
	workflow, _ := os.ReadFile(filepath.Join(p.dir, ".github", "workflows", "ralph-gate.yml"))
	for _, want := range []string{"actions/setup-go@v5", "persist-credentials: false", `token: ""`} {
		if !strings.Contains(string(workflow), want) {
			t.Errorf("the measure workflow lacks %q:\n%s", want, workflow)
		}
	}
	lintWorkflows(t, p.dir)

	again := runGate(t, p.dir, "", "init", "--hook")
	if again.code != 0 || strings.Count(again.stdout, "unchanged") != 3 || strings.Contains(again.stdout, "git add") {
		t.Errorf("second init: exit %d\n%s", again.code, again.stdout)
	}
	cfgPath := filepath.Join(p.dir, ".ralph-gate.yml")
	if err := os.WriteFile(cfgPath, []byte("fail_on: critical\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	kept := runGate(t, p.dir, "", "init")
	if data, _ := os.ReadFile(cfgPath); kept.code != 0 || string(data) != "fail_on: critical\n" || !strings.Contains(kept.stdout, "kept .ralph-gate.yml") {
		t.Errorf("init over a changed config: exit %d, config now %q\n%s", kept.code, data, kept.stdout)
	}
	forced := runGate(t, p.dir, "", "init", "--force")
	if data, _ := os.ReadFile(cfgPath); forced.code != 0 || !strings.Contains(string(data), "fail_on: high") || !strings.Contains(forced.stdout, "overwrote .ralph-gate.yml") {
		t.Errorf("init --force: exit %d\n%s", forced.code, forced.stdout)
	}

	// The setup commit goes in past the hook (it changes the gate's own
	// configuration: the hook refuses it by design); a test deletion does not.
	p.git("add", "-A")
	p.commit("Gate agent changes with ralph-gate")
	if res := p.push(nil, "--no-verify", "origin", "main"); res.code != 0 {
		t.Fatalf("setup push: %s", res.stderr)
	}
	p.write("calc_test.go", calcTestNoSub)
	p.commit("make the tests pass")
	if res := p.push(nil, "origin", "main"); res.code == 0 || !strings.Contains(res.stderr, "test_deletion") {
		t.Fatalf("the hook let a test deletion through: exit %d\n%s", res.code, res.stderr)
	}
}

// TestInitToolchains: the measure workflow sets up each toolchain found, and
// passes actionlint; a symbolic link where a file goes is refused.
func TestInitToolchains(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("package.json", `{"name": "x", "scripts": {"test": "vitest run"}, "devDependencies": {"vitest": "3.2.4"}}`)
	r.write("pnpm-lock.yaml", "lockfileVersion: '9.0'\n")
	r.write("pyproject.toml", "[project]\nname = \"x\"\n")
	r.write("requirements.txt", "requests\n")
	r.commit("a polyglot project")
	res := runGate(t, r.dir, "", "init")
	if res.code != 0 || !strings.Contains(res.stdout, "found JavaScript/TypeScript, Python") {
		t.Fatalf("init: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	workflow, _ := os.ReadFile(filepath.Join(r.dir, ".github", "workflows", "ralph-gate.yml"))
	for _, want := range []string{"pnpm/action-setup@v4", "actions/setup-node@v4", "node-version: lts/*", "actions/setup-python@v5",
		"pip install -r requirements.txt", "pip install -e ."} {
		if !strings.Contains(string(workflow), want) {
			t.Errorf("the measure workflow lacks %q:\n%s", want, workflow)
		}
	}
	lintWorkflows(t, r.dir)

	s := newRepo(t)
	s.write("go.mod", "module x\n")
	s.commit("go")
	if err := os.Symlink(t.TempDir(), filepath.Join(s.dir, ".github")); err != nil {
		t.Fatal(err)
	}
	res = runGate(t, s.dir, "", "init")
	if res.code != 2 || !strings.Contains(res.stderr, "symbolic link") {
		t.Errorf("init through a symlinked .github: exit %d\n%s", res.code, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(s.dir, ".ralph-gate.yml")); err == nil {
		t.Errorf("init refused one file and wrote another")
	}
}
