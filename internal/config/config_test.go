package config

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

func TestParse(t *testing.T) {
	data := `# the gate's policy
fail_on: medium
severity:
  error_suppression: high
ignore:
  - "generated/**"
  - "*.pb.go"
exceptions:
  - type: test_deletion
    path: "legacy/**"
    reason: "legacy suite removed in #123"
`
	c, err := Parse(".ralph-gate.yml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if c.FailOn == nil || *c.FailOn != gate.SeverityMedium {
		t.Errorf("fail_on = %v", c.FailOn)
	}
	if c.Severity[gate.ErrorSuppression] != gate.SeverityHigh {
		t.Errorf("severity override = %v", c.Severity)
	}
	for p, want := range map[string]bool{
		"generated/x/y.go": true, "api/v1/a.pb.go": true, "src/a.go": false,
		"vendor/x/y.go": true, "pkg/testdata/a_test.go": true, "web/node_modules/x/a.js": true,
	} {
		if got := c.Ignored(p); got != want {
			t.Errorf("Ignored(%q) = %v, want %v", p, got, want)
		}
	}
	fs := []gate.Finding{
		{Type: gate.TestDeletion, File: "legacy/old_test.go", Severity: gate.SeverityCritical},
		{Type: gate.TestDeletion, File: "src/a_test.go", Severity: gate.SeverityCritical},
		{Type: gate.ErrorSuppression, File: "src/a.go", Severity: gate.SeverityMedium},
	}
	c.Apply(fs)
	got := []string{fs[0].Suppressed, fs[1].Suppressed, fs[2].Severity.String()}
	want := []string{"legacy suite removed in #123", "", "high"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Apply (-want +got):\n%s", diff)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"unknown field", "fail_on: high\nfailon: low\n", "line 2: field failon not found"},
		{"bad severity", "fail_on: extreme\n", "line 1"},
		{"bad type", "severity:\n  test_removal: high\n", `unknown finding type "test_removal"`},
		{"exception without reason", "exceptions:\n  - type: test_deletion\n", "line 2: exception: a sanctioned exception needs a reason"},
		{"not yaml", "fail_on: [high\n", "line"},
		{"ci_commands value", "compare:\n  ci_commands: sometimes\n", `ci_commands is auto or off, not "sometimes"`},
		{"witness value", "compare:\n  witness: sometimes\n", `witness is auto or off, not "sometimes"`},
		{"witness severity", "compare:\n  witness_severity: huge\n", `unknown severity "huge"`},
		{"ci_steps not a workflow", "compare:\n  ci_steps: [Makefile]\n", `"Makefile" is not a workflow`},
		{"ci_timeout", "compare:\n  ci_timeout: soon\n", `ci_timeout: "soon" is not a duration`},
		{"mutation budget word", "mutation:\n  budget: fast\n", `mutation: budget: "fast" is not a positive multiple (10x) or a duration (5m)`},
		{"mutation budget zero multiple", "mutation:\n  budget: 0x\n", `budget: "0x" is not a positive multiple`},
		{"mutation budget negative", "mutation:\n  budget: -5m\n", `budget: "-5m" is not a positive multiple`},
		{"mutation jobs", "mutation:\n  jobs: -1\n", "mutation: jobs cannot be negative"},
		{"mutation arid", "mutation:\n  arid: ['(unclosed']\n", `mutation: arid: "(unclosed" is not a regular expression`},
		{"mutation severity", "mutation:\n  severity: huge\n", `unknown severity "huge"`},
		{"mutation enabled", "mutation:\n  enabled: sometimes\n", "line 2"},
		{"negative branch tolerance", "compare:\n  branch_coverage_tolerance: -1\n", "tolerances cannot be negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(".ralph-gate.yml (at BASE abc)", []byte(tc.in))
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "config .ralph-gate.yml (at BASE abc): ") {
				t.Errorf("err = %q, want the file name and %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("err has more than one line: %q", err)
			}
		})
	}
}

func TestCISteps(t *testing.T) {
	c, err := Parse("c", []byte("compare:\n  ci_steps: [.github/workflows/ci.yml:test, .github/workflows/lint.yml]\n  ci_timeout: 10m\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		wf, job string
		want    bool
	}{
		{".github/workflows/ci.yml", "test", true},
		{".github/workflows/ci.yml", "build", false},
		{".github/workflows/lint.yml", "any", true},
		{".github/workflows/other.yml", "test", false},
	} {
		if got := c.Compare.PicksCIStep(tc.wf, tc.job); got != tc.want {
			t.Errorf("PicksCIStep(%s, %s) = %v", tc.wf, tc.job, got)
		}
	}
	if !c.Compare.CICommandsOn() || !Default().Compare.CICommandsOn() || !Default().Compare.PicksCIStep(".github/workflows/x.yml", "j") {
		t.Error("CI steps are measured by default")
	}
	off, err := Parse("c", []byte("compare:\n  ci_commands: off\n"))
	if err != nil || off.Compare.CICommandsOn() {
		t.Errorf("ci_commands: off: %v, on=%v", err, off.Compare.CICommandsOn())
	}
}

func TestIgnoreDefaultsOff(t *testing.T) {
	c, err := Parse("c", []byte("ignore_defaults: false\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Ignored("vendor/a.go") {
		t.Error("vendor ignored with ignore_defaults: false")
	}
}

func TestMatchGlob(t *testing.T) {
	for _, tc := range []struct {
		glob, path string
		want       bool
	}{
		{"**/testdata/**", "testdata/a.go", true},
		{"**/testdata/**", "a/b/testdata/c/d.go", true},
		{"a/*/c.go", "a/b/c.go", true},
		{"a/*/c.go", "a/b/x/c.go", false},
		{"a/**/c.go", "a/c.go", true},
		{"*.md", "docs/x.md", true},
	} {
		if got := MatchGlob(tc.glob, tc.path); got != tc.want {
			t.Errorf("MatchGlob(%q, %q) = %v, want %v", tc.glob, tc.path, got, tc.want)
		}
	}
}

func TestCollectorRunnerValidated(t *testing.T) {
	_, err := Parse(".ralph-gate.yml", []byte("collectors:\n  - name: unit\n    argv: [make, test]\n    runner: nose\n    reports: [{format: junit, path: out.xml}]\n"))
	if err == nil || !strings.Contains(err.Error(), `collectors[0] (unit): runner: unknown runner "nose"`) {
		t.Errorf("err = %v, want the collector and the unknown runner named", err)
	}
	c, err := Parse(".ralph-gate.yml", []byte("collectors:\n  - name: unit\n    argv: [make, test]\n    runner: maven\n    reports: [{format: junit, path: out.xml}]\n"))
	if err != nil || c.Collectors[0].Runner != "maven" {
		t.Errorf("runner: maven: %v, %+v", err, c)
	}
}

func TestMutation(t *testing.T) {
	c, err := Parse("c", []byte("mutation:\n  budget: 3x\n  severity: high\n  large_change: 50\n  arid: ['^metrics\\.']\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := c.Mutation
	if m.MutationOn(false) || !m.MutationOn(true) {
		t.Error("enabled unset: the command's default decides")
	}
	if got := m.BudgetFor(time.Minute); got != 3*time.Minute {
		t.Errorf("3x of 1m = %s", got)
	}
	if got := m.BudgetFor(time.Second); got != time.Minute {
		t.Errorf("3x of 1s = %s, want the floor of a minute", got)
	}
	if m.SurvivorSeverity(10) != gate.SeverityHigh || m.SurvivorSeverity(51) != gate.SeverityLow {
		t.Errorf("severity: %s for 10 lines, %s for 51", m.SurvivorSeverity(10), m.SurvivorSeverity(51))
	}
	if re := m.AridPatterns(); len(re) != 1 || !re[0].MatchString("metrics.Inc()") {
		t.Errorf("arid patterns %v", re)
	}
	d, err := Parse("c", []byte("mutation:\n  enabled: false\n  budget: 90s\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Mutation.MutationOn(true) || d.Mutation.BudgetFor(time.Hour) != 90*time.Second {
		t.Errorf("enabled: false, budget 90s: on %v, budget %s", d.Mutation.MutationOn(true), d.Mutation.BudgetFor(time.Hour))
	}
	if Default().Mutation.SurvivorSeverity(1) != gate.SeverityMedium || Default().Mutation.BudgetFor(time.Minute) != 10*time.Minute {
		t.Error("defaults: medium survivors, a budget of ten times the tests' run")
	}
}
