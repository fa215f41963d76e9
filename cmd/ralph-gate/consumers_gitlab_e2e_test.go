package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// gitlabCILocal finds gitlab-ci-local in the npm install named by
// $RALPH_GATE_GITLAB_CI_LOCAL_DIR (.ci/run installs the tree
// .ci/gitlab-ci-local/package-lock.json pins there); it copies the project
// with rsync, which must be on PATH.
func gitlabCILocal(t *testing.T) string {
	t.Helper()
	hint := "npm ci --prefix DIR with .ci/gitlab-ci-local/package*.json (gitlab-ci-local 4.73.0), and set RALPH_GATE_GITLAB_CI_LOCAL_DIR=DIR"
	dir := os.Getenv("RALPH_GATE_GITLAB_CI_LOCAL_DIR")
	if dir == "" {
		missingTool(t, "RALPH_GATE_REQUIRE_GITLAB_CI_LOCAL", "RALPH_GATE_GITLAB_CI_LOCAL_DIR is not set: "+hint)
	}
	bin := filepath.Join(dir, "node_modules", ".bin", "gitlab-ci-local")
	if out, err := exec.Command(bin, "--version").Output(); err != nil || strings.TrimSpace(string(out)) != "4.73.0" {
		missingTool(t, "RALPH_GATE_REQUIRE_GITLAB_CI_LOCAL", bin+" is not gitlab-ci-local 4.73.0 ("+strings.TrimSpace(string(out))+"): "+hint)
	}
	if _, err := exec.LookPath("rsync"); err != nil {
		missingTool(t, "RALPH_GATE_REQUIRE_GITLAB_CI_LOCAL", "gitlab-ci-local needs rsync (apt-get install rsync)")
	}
	return bin
}

// gitlabCI is the project's .gitlab-ci.yml: the example included as the
// README says, with one key overridden (GitLab merges a job defined again in
// the including file over the included one). gitlab-ci-local runs the job on
// its shell executor, on this machine: the example's before_script, which
// clones ralph-gate from GitHub and builds it into /usr/local/bin of the
// job's golang image, would need the network and would write outside the
// project, so the binary under test comes from PATH instead.
const gitlabCI = `include:
  - local: ralph-gate.gitlab-ci.yml

ralph-gate:
  before_script:
    - ralph-gate version
`

// TestGitLabCILocalRunsExample: gitlab-ci-local 4.73.0 runs the job of
// examples/gitlab/ralph-gate.gitlab-ci.yml, its rules, script and
// after_script as written, on a merge request that deletes a test: the
// pipeline fails, the Code Quality report names the deleted test as a
// blocker, and the after_script prints the findings. An honest merge request
// passes, and a push pipeline leaves the job out (its rules).
func TestGitLabCILocalRunsExample(t *testing.T) {
	t.Parallel()
	slow(t)
	bin := gitlabCILocal(t)
	example, err := os.ReadFile("../../examples/gitlab/ralph-gate.gitlab-ci.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, source string
		change       func(r *repo)
		code         int
		stdout       []string // lines of gitlab-ci-local's output; nil when the job must not run
		blockers     []string // the Code Quality report's blockers
	}{
		{
			name: "a merge request that deletes a test", source: "merge_request_event",
			change: func(r *repo) { r.write("calc_test.go", calcTestNoSub) },
			code:   1,
			stdout: []string{
				`ralph-gate $ ralph-gate analyze --format codeclimate --fail-on high "$CI_MERGE_REQUEST_DIFF_BASE_SHA" HEAD > gl-code-quality-report.json`,
				"ralph-gate >     test_deletion at calc_test.go:11 (TestSub)",
				"ralph-gate > BLOCK: 1 net finding at or above high",
				" FAIL  ralph-gate",
			},
			blockers: []string{"test_deletion/test-deleted calc_test.go:11 test TestSub was deleted from calc_test.go and not renamed or moved."},
		},
		{
			name: "an honest merge request", source: "merge_request_event",
			change: func(r *repo) {
				r.write("calc_test.go", calcTest+"\nfunc TestAddZero(t *testing.T) {\n\tif got := Add(0, 0); got != 0 {\n\t\tt.Errorf(\"Add(0, 0) = %d, want 0\", got)\n\t}\n}\n")
			},
			code:   0,
			stdout: []string{"ralph-gate > PASS: no findings", " PASS  ralph-gate"},
		},
		{
			name: "a push pipeline", source: "push",
			change: func(r *repo) { r.write("calc_test.go", calcTestNoSub) },
			code:   0,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := goModule(t)
			r.write("ralph-gate.gitlab-ci.yml", string(example))
			r.write(".gitlab-ci.yml", gitlabCI)
			base := r.commit("ci")
			tc.change(r)
			r.commit("the merge request")

			env := append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1")
			res := command(t, r.dir, env, "", bin, "--no-color", "--home", t.TempDir(),
				// No Docker engine: the job's image is not pulled, its
				// script runs in a shell on this machine.
				"--force-shell-executor",
				"--ignore-predefined-vars", "CI_PIPELINE_SOURCE",
				"--variable", "CI_PIPELINE_SOURCE="+tc.source,
				"--variable", "CI_MERGE_REQUEST_DIFF_BASE_SHA="+base)
			if res.code != tc.code {
				t.Errorf("gitlab-ci-local: exit %d, want %d\n%s\n%s", res.code, tc.code, res.stdout, res.stderr)
			}
			for _, want := range tc.stdout {
				if !strings.Contains(res.stdout, want+"\n") {
					t.Errorf("the job's log lacks %q:\n%s", want, res.stdout)
				}
			}
			reportFile := filepath.Join(r.dir, "gl-code-quality-report.json")
			if tc.stdout == nil {
				if strings.Contains(res.stdout, "ralph-gate $") {
					t.Errorf("the job ran in a %s pipeline:\n%s", tc.source, res.stdout)
				}
				if _, err := os.Stat(reportFile); err == nil {
					t.Errorf("a %s pipeline wrote %s", tc.source, reportFile)
				}
				return
			}
			// gitlab-ci-local exports artifacts:paths only, not
			// reports:codequality (GitLab's server reads that): the shell
			// executor's job left it in the project.
			data, err := os.ReadFile(reportFile)
			if err != nil {
				t.Fatalf("the job wrote no Code Quality report: %v", err)
			}
			issues := codeQualityIssues(t, data)
			var blockers []string
			for _, is := range issues {
				if is.Severity == "blocker" {
					blockers = append(blockers, fmt.Sprintf("%s %s:%d %s", is.CheckName, is.Location.Path, is.Location.Lines.Begin, is.Description))
				}
			}
			if diff := cmp.Diff(tc.blockers, blockers); diff != "" {
				t.Errorf("the report's blockers (-want +got):\n%s\n%s", diff, data)
			}
		})
	}
}
