package main

// The consumer tests: every machine-readable output is loaded by the program
// that consumes it, at the version .ci/run pins, never only checked against a
// schema we hold. Each test drives the built binary on a real repository and
// then the real consumer on what it wrote. .ci/run installs each consumer and
// sets RALPH_GATE_REQUIRE_<NAME>, under which a missing one fails the test
// instead of skipping it.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

const (
	reviewdogVersion      = "v0.21.0"
	sarifMultitoolVersion = "5.7.0"
)

// cheatRepo is a Go project whose last commit, "make the tests pass", does
// what an agent under pressure does: it deletes TestSub, empties TestAdd's
// assertion, appends `|| true` to the CI test step, adds a //nolint and
// deletes the legacy suite, whose deletion the base's .ralph-gate.yml
// sanctions (so it is reported, suppressed). It returns the base commit.
func cheatRepo(t *testing.T) (*repo, string) {
	t.Helper()
	r := newRepo(t)
	r.write("go.mod", "module example.com/calc\n\ngo 1.26\n")
	r.write("calc.go", calcSrc)
	r.write("calc_test.go", calcTest)
	r.write(".github/workflows/ci.yml", ciWorkflow("go test ./..."))
	r.write("legacy/old_test.go", "package legacy\n\nimport \"testing\"\n\nfunc TestOld(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"math\")\n\t}\n}\n")
	r.write(".ralph-gate.yml", "exceptions:\n  - type: test_deletion\n    path: \"legacy/**\"\n    reason: \"legacy suite replaced by golden files\"\n")
	base := r.commit("base")
	r.write("calc_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\t_ = Add(2, 3)\n}\n")
	r.write(".github/workflows/ci.yml", ciWorkflow("go test ./... || true"))
	r.remove("legacy/old_test.go")
	r.write("calc.go", calcSrc+"\n// Div divides.\nfunc Div(a, b int) int { return a / b } //nolint:all\n")
	r.commit("make the tests pass")
	return r, base
}

func ciWorkflow(step string) string {
	return "name: ci\non: [pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: " + step + "\n"
}

// command runs name in dir with env and stdin and returns its exit code and
// its standard output and error; a command that cannot start fails t.
func command(t *testing.T, dir string, env []string, stdin, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v", name, err)
	}
	return result{code, out.String(), errb.String()}
}

// reviewdog finds reviewdog v0.21.0: $RALPH_GATE_REVIEWDOG (where .ci/run
// installs it), else reviewdog on PATH, if go version -m says it is that
// version.
func reviewdog(t *testing.T) string {
	t.Helper()
	hint := "reviewdog " + reviewdogVersion + " is not installed (GOFLAGS= go install github.com/reviewdog/reviewdog/cmd/reviewdog@" + reviewdogVersion + ", or set RALPH_GATE_REVIEWDOG to its path)"
	p := os.Getenv("RALPH_GATE_REVIEWDOG")
	if p == "" {
		p, _ = exec.LookPath("reviewdog")
	}
	if p == "" {
		missingTool(t, "RALPH_GATE_REQUIRE_REVIEWDOG", hint)
	}
	out, err := exec.Command("go", "version", "-m", p).Output()
	if err != nil || !regexp.MustCompile(`(?m)^\s*mod\s+github\.com/reviewdog/reviewdog\s+`+regexp.QuoteMeta(reviewdogVersion)+`\s`).Match(out) {
		missingTool(t, "RALPH_GATE_REQUIRE_REVIEWDOG", p+" is not reviewdog "+reviewdogVersion+": "+hint)
	}
	return p
}

// TestReviewdogReadsRDJSON: reviewdog reads --format rdjson with its local
// reporter and reports each finding on its file and line, and its exit code
// follows -fail-level: ralph-gate makes a finding that blocks at --fail-on
// an ERROR, another a WARNING and a suppressed one an INFO. With reviewdog's
// default filter (lines the diff adds) the findings about deleted lines are
// dropped, which is why docs/github-action.md says -filter-mode=nofilter.
func TestReviewdogReadsRDJSON(t *testing.T) {
	t.Parallel()
	bin := reviewdog(t)
	r, base := cheatRepo(t)
	lines := map[string]string{
		"ci":      ".github/workflows/ci.yml:8: critical: .github/workflows/ci.yml now ignores the exit status of a check: `- run: go test ./... || true`. (validation_bypass/or-true)",
		"deleted": "calc_test.go:11: critical: test TestSub was deleted from calc_test.go and not renamed or moved. (test_deletion/test-deleted)",
		"emptied": "calc_test.go:5: high: test TestAdd no longer asserts anything: removed t.Errorf(5). (assertion_weakening/assertion-removed)",
		"nolint":  "calc.go:10: medium: suppression `nolint:all` was added in calc.go. (error_suppression/suppression-nolint)",
		"legacy":  "legacy/old_test.go:5: critical: test TestOld was deleted together with its file legacy/old_test.go. (suppressed: legacy suite replaced by golden files) (test_deletion/test-deleted)",
	}
	all := []string{lines["ci"], lines["deleted"], lines["emptied"], lines["nolint"], lines["legacy"]}
	for _, tc := range []struct {
		name   string
		failOn string   // ralph-gate analyze --fail-on
		args   []string // reviewdog's flags after -f=rdjson -reporter=local
		code   int
		want   []string
	}{
		{"nofilter, blocking findings are errors", "high", []string{"-filter-mode=nofilter", "-fail-level=error"}, 1, all},
		{"nofilter, nothing blocks at fail-on none", "none", []string{"-filter-mode=nofilter", "-fail-level=error"}, 0, all},
		{"nofilter, warnings fail at -fail-level=warning", "none", []string{"-filter-mode=nofilter", "-fail-level=warning"}, 1, all},
		{"only the critical ones are errors at fail-on critical", "critical", []string{"-filter-mode=nofilter", "-fail-level=error"}, 1, all},
		// -fail-on-error is -fail-level=any in 0.21: a warning fails too.
		{"the deprecated -fail-on-error fails on warnings", "none", []string{"-filter-mode=nofilter", "-fail-on-error"}, 1, all},
		{"the file filter drops a deleted file's findings", "high", []string{"-diff=git diff " + base + " HEAD", "-filter-mode=file", "-fail-level=error"}, 1, all[:4]},
		{"the default filter keeps added lines only", "high", []string{"-diff=git diff " + base + " HEAD", "-filter-mode=added", "-fail-level=error"}, 1,
			[]string{lines["ci"], lines["nolint"]}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runGate(t, r.dir, "", "analyze", "--format", "rdjson", "--fail-on", tc.failOn, base, "HEAD")
			if res.code != 0 && res.code != 1 {
				t.Fatalf("analyze: exit %d\n%s", res.code, res.stderr)
			}
			rd := command(t, r.dir, os.Environ(), res.stdout, bin, append([]string{"-f=rdjson", "-reporter=local"}, tc.args...)...)
			if rd.code != tc.code {
				t.Errorf("reviewdog %s: exit %d, want %d\n%s%s", strings.Join(tc.args, " "), rd.code, tc.code, rd.stdout, rd.stderr)
			}
			// reviewdog posts comments concurrently: the order is not its
			// contract.
			got := strings.Split(strings.TrimSpace(rd.stdout), "\n")
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("reviewdog's lines (-want +got):\n%s\nstderr:\n%s", diff, rd.stderr)
			}
		})
	}
}

// sarifMultitool finds Microsoft's SARIF multitool in the npm install named
// by $RALPH_GATE_SARIF_MULTITOOL_DIR (.ci/run installs it there). The test
// runs the platform package's executable itself: the package's bin.js passes
// its arguments through a shell, which cuts "Ghas;Sarif" at the semicolon.
func sarifMultitool(t *testing.T) string {
	t.Helper()
	hint := "npm install --prefix DIR @microsoft/sarif-multitool@" + sarifMultitoolVersion + " and set RALPH_GATE_SARIF_MULTITOOL_DIR=DIR"
	dir := os.Getenv("RALPH_GATE_SARIF_MULTITOOL_DIR")
	if dir == "" {
		missingTool(t, "RALPH_GATE_REQUIRE_SARIF_MULTITOOL", "RALPH_GATE_SARIF_MULTITOOL_DIR is not set: "+hint)
	}
	platform, exe := runtime.GOOS, "Sarif.Multitool"
	if platform == "windows" {
		platform, exe = "win32", exe+".exe"
	}
	bin := filepath.Join(dir, "node_modules", "@microsoft", "sarif-multitool-"+platform, exe)
	out, err := exec.Command(bin, "--version").CombinedOutput() // it writes its version to standard error
	if err != nil || !strings.Contains(string(out), "SARIF Multitool "+sarifMultitoolVersion+"+") {
		missingTool(t, "RALPH_GATE_REQUIRE_SARIF_MULTITOOL", bin+" is not SARIF Multitool "+sarifMultitoolVersion+" ("+strings.TrimSpace(string(out))+"): "+hint)
	}
	return bin
}

// acceptedSARIFNotes are the multitool's notes (suggestions, not faults)
// ralph-gate's SARIF may carry, and why. Errors and warnings are never
// accepted: each one the multitool reported was a real defect and is fixed
// (SARIF1001: a rule's name equal to its id but for case; SARIF2005: a
// version such as "devel" or "v1.2.3" that does not start with a digit).
// A note not listed here fails the test, to be fixed or listed.
var acceptedSARIFNotes = map[string]string{
	"SARIF2002": "message ids with arguments: each result's text is its own sentence, which code scanning shows",
	"SARIF2003": "versionControlProvenance: ralph-gate does not know the repository's URI; upload-sarif sends the commit and ref",
	"SARIF2006": "an unreachable URI: the multitool GETs the $schema address, which a machine without internet cannot reach",
	"SARIF2009": "rule ids like CS2001: the ids are the JSON contract's finding types (test_deletion, ...)",
	"SARIF2010": "region snippets: code scanning shows the file at the analyzed commit; a deleted test's line is not there",
	"SARIF2011": "context regions: as for snippets",
	"SARIF2012": "helpUri: each rule carries its help text and markdown; there is no page per rule",
}

// TestSARIFMultitoolValidates: Microsoft's SARIF multitool validates
// ralph-gate's SARIF with its SARIF rules and GitHub's ingestion rules
// (--rule-kind Ghas;Sarif): no error, no warning, and only the notes of
// acceptedSARIFNotes. The same output with a rule's help removed, validated in
// the same run, must raise GitHub's GH2012 error: proof that the GitHub
// rules ran at all.
func TestSARIFMultitoolValidates(t *testing.T) {
	t.Parallel()
	slow(t)
	bin := sarifMultitool(t)
	r, base := cheatRepo(t)
	res := runGate(t, r.dir, "", "analyze", "--format", "sarif", base, "HEAD")
	if res.code != 1 {
		t.Fatalf("analyze: exit %d, want 1 (blocked)\n%s", res.code, res.stderr)
	}
	dir := t.TempDir()
	ours := filepath.Join(dir, "ralph-gate.sarif")
	if err := os.WriteFile(ours, []byte(res.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	var broken map[string]any
	if err := json.Unmarshal([]byte(res.stdout), &broken); err != nil {
		t.Fatalf("analyze --format sarif is not JSON: %v", err)
	}
	rule := broken["runs"].([]any)[0].(map[string]any)["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)[0].(map[string]any)
	delete(rule, "help")
	canary := filepath.Join(dir, "canary.sarif")
	if err := os.WriteFile(canary, mustMarshal(t, broken), 0o644); err != nil {
		t.Fatal(err)
	}

	logFile := filepath.Join(dir, "validation.sarif")
	v := command(t, dir, os.Environ(), "", bin, "validate", "--rule-kind", "Ghas;Sarif", "--level", "Error;Warning;Note",
		"-o", logFile, ours, canary)
	if v.code != 0 {
		t.Fatalf("sarif-multitool validate: exit %d\n%s%s", v.code, v.stdout, v.stderr)
	}
	data, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatalf("the multitool wrote no log: %v\n%s", err, v.stdout)
	}
	found := readValidation(t, data)
	var problems []string
	for _, f := range found[filepath.Base(ours)] {
		if f.level == "note" && acceptedSARIFNotes[f.rule] != "" {
			continue
		}
		problems = append(problems, f.level+" "+f.rule)
	}
	if len(problems) > 0 {
		t.Errorf("the multitool found %s in ralph-gate's SARIF:\n%s", strings.Join(problems, ", "), v.stdout)
	}
	if !slices.Contains(found[filepath.Base(canary)], validationResult{"GH2012", "error"}) {
		t.Errorf("no GH2012 error for a rule without help: did the GitHub rules run? %v\n%s", found[filepath.Base(canary)], v.stdout)
	}
}

// validationResult is one result of the multitool's log: its rule and level.
type validationResult struct{ rule, level string }

// readValidation reads the multitool's SARIF log into its results per
// analyzed file (by base name). A result without a level has its rule's
// default level, else "warning" (SARIF 2.1.0 §3.27.10).
func readValidation(t *testing.T, data []byte) map[string][]validationResult {
	t.Helper()
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID                   string `json:"id"`
						DefaultConfiguration struct {
							Level string `json:"level"`
						} `json:"defaultConfiguration"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("the multitool's log is not one SARIF run: %v\n%s", err, data)
	}
	run := log.Runs[0]
	defaults := map[string]string{}
	for _, r := range run.Tool.Driver.Rules {
		defaults[r.ID] = r.DefaultConfiguration.Level
	}
	out := map[string][]validationResult{}
	for _, res := range run.Results {
		level := res.Level
		if level == "" {
			level = defaults[res.RuleID]
		}
		if level == "" {
			level = "warning"
		}
		file := ""
		if len(res.Locations) > 0 {
			file = filepath.Base(res.Locations[0].PhysicalLocation.ArtifactLocation.URI)
		}
		out[file] = append(out[file], validationResult{res.RuleID, level})
	}
	return out
}

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
			schema, err := jsonschema.NewCompiler().Compile("../../testdata/schemas/gitlab-codequality.json")
			if err != nil {
				t.Fatal(err)
			}
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("the report is not JSON: %v\n%s", err, data)
			}
			if err := schema.Validate(inst); err != nil {
				t.Errorf("the report does not validate against GitLab's field list: %v\n%s", err, data)
			}
			var issues []struct {
				CheckName   string `json:"check_name"`
				Description string `json:"description"`
				Severity    string `json:"severity"`
				Location    struct {
					Path  string `json:"path"`
					Lines struct {
						Begin int `json:"begin"`
					} `json:"lines"`
				} `json:"location"`
			}
			if err := json.Unmarshal(data, &issues); err != nil {
				t.Fatalf("the report is not JSON: %v\n%s", err, data)
			}
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

	steps := []struct {
		name string
		args []string // git's
		code int
		want []string // in git's output
	}{
		{"a commit that deletes a test", []string{"commit", "-q", "-am", "make the tests pass"}, 1, []string{
			"ralph-gate regression gate (staged changes)", "Failed",
			"critical test_deletion calc_test.go:11 test TestSub", "commit refused",
		}},
		{"an honest commit", []string{"commit", "-q", "-am", "add Mul"}, 0, []string{"ralph-gate regression gate (staged changes)", "Passed"}},
		{"its push", []string{"push", "origin", "main"}, 0, []string{"ralph-gate regression gate", "Passed"}},
		{"a commit past the hook", []string{"commit", "-q", "--no-verify", "-am", "make the tests pass"}, 0, nil},
		{"its push", []string{"push", "origin", "main"}, 1, []string{
			"ralph-gate regression gate", "Failed", "critical test_deletion calc_test.go:11 test TestSub", "push refused",
		}},
	}
	for i, step := range steps {
		switch i {
		case 0, 3:
			r.write("calc_test.go", calcTestNoSub)
		case 1:
			r.git("checkout", "-q", "--", "calc_test.go")
			r.write("calc.go", calcSrc+"\n// Mul multiplies.\nfunc Mul(a, b int) int { return a * b }\n")
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
