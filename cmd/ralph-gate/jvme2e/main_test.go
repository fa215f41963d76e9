// Package jvme2e runs the ralph-gate binary on Java projects with the real
// Maven and Gradle: the built-in collectors end to end. It is a package of
// its own so that its builds (a JVM start, a compile and a test run per
// measured end) run beside cmd/ralph-gate's end-to-end tests instead of
// inside their time budget.
package jvme2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// binary is the ralph-gate built for this run.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ralph-gate-jvme2e")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "ralph-gate")
	build := exec.Command("go", "build", "-o", binary, "..")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic("build ralph-gate: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
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

// repo is a repository of a test, made with testgit.
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T) *repo { return &repo{t: t, dir: testgit.Init(t)} }

func (r *repo) write(path, content string) { testgit.Write(r.t, r.dir, path, content) }

func (r *repo) commit(msg string) string { return testgit.Commit(r.t, r.dir, msg) }

// change writes files (deleting those whose content is "") and commits them.
func (r *repo) change(msg string, files map[string]string) string {
	for p, content := range files {
		if content != "" {
			r.write(p, content)
		} else if err := os.Remove(filepath.Join(r.dir, filepath.FromSlash(p))); err != nil {
			r.t.Fatal(err)
		}
	}
	return r.commit(msg)
}

// javaProject writes the calculator both builds measure (build files apart)
// and commits it as BASE.
func (r *repo) javaProject(build map[string]string) string {
	build["src/main/java/ex/Calc.java"] = calcJava
	build["src/test/java/ex/CalcTest.java"] = calcTestJava
	return r.change("calc", build)
}

// compareReport is what these tests read of compare's JSON report.
type compareReport struct {
	Findings []struct {
		Rule string `json:"rule"`
		Net  bool   `json:"net"`
	} `json:"findings"`
}

// has reports a net finding of the rule.
func (r compareReport) has(rule string) bool {
	for _, f := range r.Findings {
		if f.Net && f.Rule == rule {
			return true
		}
	}
	return false
}

// compareExits runs compare base..HEAD in r as JSON, fails the test unless
// it exits 1 when block is set and 0 otherwise, and returns the report and
// the raw output.
func compareExits(t *testing.T, r *repo, base string, block bool) (compareReport, string) {
	t.Helper()
	cmd := exec.Command(binary, "compare", "--format", "json", base, "HEAD")
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	want := 0
	if block {
		want = 1
	}
	if code != want {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, want, out.String(), errb.String())
	}
	var rep compareReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	return rep, strings.TrimSpace(out.String())
}

// slow marks a case of several seconds: go test -short leaves it out.
func slow(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("a slow end-to-end case: go test ./... (without -short) runs it, as .ci/run does")
	}
}
