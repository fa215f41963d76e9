package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// TestGitLabExample runs the script of examples/gitlab/ralph-gate.gitlab-ci.yml
// as GitLab's bash executor does (set -eo pipefail, the merge request's
// variables) on a real repository whose merge request deletes a test: the job
// fails, and its Code Quality report validates against GitLab's field list
// and names the deleted test.
func TestGitLabExample(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../examples/gitlab/ralph-gate.gitlab-ci.yml")
	if err != nil {
		t.Fatal(err)
	}
	var ci map[string]struct {
		Script    []string `yaml:"script"`
		Artifacts struct {
			When    string            `yaml:"when"`
			Reports map[string]string `yaml:"reports"`
		} `yaml:"artifacts"`
	}
	if err := yaml.Unmarshal(raw, &ci); err != nil {
		t.Fatalf("the example is not YAML: %v", err)
	}
	job, ok := ci["ralph-gate"]
	if !ok || len(job.Script) == 0 {
		t.Fatalf("no ralph-gate job with a script: %+v", ci)
	}
	report := job.Artifacts.Reports["codequality"]
	if report == "" || job.Artifacts.When != "always" {
		t.Fatalf("artifacts: %+v, want a codequality report uploaded always", job.Artifacts)
	}

	r := newRepo(t)
	r.write("calc/calc.go", "package calc\n\nfunc Add(a, b int) int { return a + b }\n")
	r.write("calc/calc_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"1+2\")\n\t}\n}\n\nfunc TestAddZero(t *testing.T) {\n\tif Add(0, 0) != 0 {\n\t\tt.Fatal(\"0+0\")\n\t}\n}\n")
	base := r.commit("calc")
	r.write("calc/calc_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"1+2\")\n\t}\n}\n")
	r.commit("drop a flaky test")

	cmd := exec.Command("bash", "-c", "set -eo pipefail\n"+strings.Join(job.Script, "\n"))
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary)+":"+os.Getenv("PATH"),
		"CI_MERGE_REQUEST_DIFF_BASE_SHA="+base, "CI_PIPELINE_SOURCE=merge_request_event",
		"CI_PROJECT_URL=https://gitlab.example.com/g/p")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("the job's script = %v, want exit 1 (blocked)\n%s", err, stderr.String())
	}
	out, err := os.ReadFile(filepath.Join(r.dir, report))
	if err != nil {
		t.Fatal(err)
	}
	issues := codeQualityIssues(t, out)
	for _, is := range issues {
		if strings.HasPrefix(is.CheckName, "test_deletion") && strings.Contains(is.Description, "TestAddZero") && is.Location.Path == "calc/calc_test.go" && is.Severity == "blocker" {
			return
		}
	}
	t.Fatalf("no blocker test_deletion issue for TestAddZero in calc/calc_test.go:\n%s", out)
}

// codeQualityIssue is the part of a GitLab Code Quality issue the tests
// read.
type codeQualityIssue struct {
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

// codeQualityIssues checks a Code Quality report against GitLab's field
// list (testdata/schemas/gitlab-codequality.json) and reads its issues.
func codeQualityIssues(t *testing.T, data []byte) []codeQualityIssue {
	t.Helper()
	schema, err := jsonschema.NewCompiler().Compile("../../testdata/schemas/gitlab-codequality.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the report is not JSON: %v\n%s", err, data)
	}
	if err := schema.Validate(inst); err != nil {
		t.Fatalf("the report does not validate against GitLab's field list: %v\n%s", err, data)
	}
	var issues []codeQualityIssue
	if err := json.Unmarshal(data, &issues); err != nil {
		t.Fatal(err)
	}
	return issues
}
