package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

const sarifSchemaPath = "../../testdata/schemas/sarif-schema-2.1.0.json"

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

func sarifSchemaForTest(t testing.TB) *jsonschema.Schema {
	t.Helper()
	schemaOnce.Do(func() {
		schema, schemaErr = jsonschema.NewCompiler().Compile(sarifSchemaPath)
	})
	if schemaErr != nil {
		t.Fatalf("compile SARIF schema: %v", schemaErr)
	}
	return schema
}

// checkSARIF validates out against the OASIS schema and against what GitHub
// code scanning requires of each result, and returns the decoded log.
func checkSARIF(t testing.TB, out []byte) sarifLog {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	if err := sarifSchemaForTest(t).Validate(inst); err != nil {
		t.Fatalf("SARIF does not validate: %v\n%s", err, out)
	}
	var log sarifLog
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	run := log.Runs[0]
	for i, r := range run.Results {
		if r.RuleID == "" || r.Message.Text == "" {
			t.Errorf("result %d: ruleId %q, message %q: GitHub needs both", i, r.RuleID, r.Message.Text)
		}
		if r.RuleIndex < 0 || r.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %d: ruleIndex %d does not name rule %q", i, r.RuleIndex, r.RuleID)
		}
		if len(r.Locations) == 0 {
			t.Errorf("result %d: no location; GitHub rejects the upload", i)
		}
		for _, l := range r.Locations {
			uri := l.PhysicalLocation.ArtifactLocation.URI
			if uri == "" || strings.HasPrefix(uri, "/") || strings.Contains(uri, "://") || uri == "." ||
				strings.HasPrefix(uri, "../") || strings.Contains(uri, "/../") {
				t.Errorf("result %d: uri %q is not a relative file path", i, uri)
			}
			if l.PhysicalLocation.Region == nil || l.PhysicalLocation.Region.StartLine < 1 {
				t.Errorf("result %d: no region with a startLine: GitHub needs one", i)
			}
		}
		if r.PartialFingerprints[fingerprintKey] == "" {
			t.Errorf("result %d: no partial fingerprint", i)
		}
	}
	return log
}

func TestSARIFValidates(t *testing.T) {
	reports := map[string]*gate.Report{"full": fullReport(), "warn": warnReport(), "empty": emptyReport(), "hostile": hostileReport()}
	for name, rep := range reports {
		t.Run(name, func(t *testing.T) {
			checkSARIF(t, render(t, SARIF, rep, Options{}))
		})
	}
}

func TestSARIFRules(t *testing.T) {
	log := checkSARIF(t, render(t, SARIF, fullReport(), Options{}))
	driver := log.Runs[0].Tool.Driver
	if driver.Name != "ralph-gate" || driver.Version != "0.3.0" || driver.InformationURI == "" {
		t.Errorf("driver = %+v", driver)
	}
	var got []string
	for _, r := range driver.Rules {
		got = append(got, fmt.Sprintf("%s %s %s %s", r.ID, r.Name, r.DefaultConfiguration.Level, r.Properties.ProblemSeverity))
		if r.ShortDescription.Text != gate.Description(gate.FindingType(r.ID)) || r.Help.Text == "" {
			t.Errorf("rule %s: description %q, help %q", r.ID, r.ShortDescription.Text, r.Help.Text)
		}
	}
	want := []string{
		"test_deletion TestDeletion error error",
		"test_skipping TestSkipping error error",
		"assertion_weakening AssertionWeakening error error",
		"error_suppression ErrorSuppression warning warning",
		"validation_bypass ValidationBypass error error",
		"feature_removal FeatureRemoval warning warning",
		"coverage_regression CoverageRegression error error",
		"test_regression TestRegression error error",
		"unverified UnverifiedFinding error error",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
}

func TestSARIFResults(t *testing.T) {
	log := checkSARIF(t, render(t, SARIF, fullReport(), Options{}))
	type summary struct {
		Rule, Level, URI string
		Line             int
		Suppressed       bool
		RepositoryLevel  bool
	}
	var got []summary
	for _, r := range log.Runs[0].Results {
		loc := r.Locations[0].PhysicalLocation
		got = append(got, summary{r.RuleID, r.Level, loc.ArtifactLocation.URI, loc.Region.StartLine,
			len(r.Suppressions) == 1 && r.Suppressions[0].Kind == "external", r.Properties.RepositoryLevel})
	}
	// Six net findings in report order; the transient test_skipping is left out.
	want := []summary{
		{"test_deletion", "error", "internal/parse/parse_test.go", 42, false, false},
		{"assertion_weakening", "error", "web/src/cart.test.ts", 17, false, false},
		{"error_suppression", "warning", "src/gen/client.ts", 3, true, false},
		{"coverage_regression", "error", RepositoryAnchor, 1, false, true},
		{"validation_bypass", "error", ".github/workflows/ci.yml", 1, false, false},
		{"feature_removal", "warning", "internal/parse/config.go", 12, false, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

// TestSARIFToolVersion: the driver's version starts with a digit, as
// Microsoft's SARIF multitool asks (SARIF2005), whatever the build says.
func TestSARIFToolVersion(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"release", "1.2.3", "1.2.3"},
		{"tag", "v1.2.3", "1.2.3"},
		{"pseudo-version", "v0.0.0-20261127143700-cae3e39a1b2c", "0.0.0-20261127143700-cae3e39a1b2c"},
		{"devel", "devel", "0.0.0-devel"},
		{"ci", "ci", "0.0.0-ci"},
		{"a word starting with v", "vnext", "0.0.0-vnext"},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sarifToolVersion(tc.in); got != tc.want {
				t.Errorf("sarifToolVersion(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestSARIFUnknownTypeGetsRule(t *testing.T) {
	rep := &gate.Report{Findings: []gate.Finding{
		{Type: "flaky_retry", Severity: gate.SeverityLow, File: "a.go", Line: 2, Net: true, Message: "retry added"},
		{Type: "", Severity: gate.Severity(9), Net: true},
	}}
	log := checkSARIF(t, render(t, SARIF, rep, Options{}))
	rules := log.Runs[0].Tool.Driver.Rules
	n := len(gate.FindingTypes)
	if len(rules) != n+2 || rules[n].ID != "flaky_retry" || rules[n].Name != "FlakyRetry" || rules[n+1].ID != "unknown" || rules[n+1].Name != "UnknownFinding" {
		t.Errorf("extra rules = %+v", rules[n:])
	}
	if lvl := log.Runs[0].Results[1].Level; lvl != "warning" {
		t.Errorf("out-of-range severity level = %q, want warning", lvl)
	}
}

func TestRepoPath(t *testing.T) {
	tests := []struct {
		name, file, root, want string
	}{
		{name: "relative", file: "internal/a.go", want: "internal/a.go"},
		{name: "dot slash", file: "./internal/a.go", want: "internal/a.go"},
		{name: "windows separators", file: `internal\a.go`, want: "internal/a.go"},
		{name: "absolute under root", file: "/home/ci/repo/internal/a.go", root: "/home/ci/repo", want: "internal/a.go"},
		{name: "absolute under root with trailing slash", file: "/home/ci/repo/a.go", root: "/home/ci/repo/", want: "a.go"},
		{name: "absolute outside root", file: "/etc/passwd", root: "/home/ci/repo", want: "etc/passwd"},
		{name: "absolute without root", file: "/tmp/x/a.go", want: "tmp/x/a.go"},
		{name: "windows drive under root", file: `C:\src\repo\a.go`, root: `C:\src\repo`, want: "a.go"},
		{name: "windows drive without root", file: `C:\src\a.go`, want: "src/a.go"},
		{name: "parent segments", file: "../../secret/a.go", want: "secret/a.go"},
		{name: "inner parent segment", file: "a/../b/c.go", want: "b/c.go"},
		{name: "root itself", file: "/home/ci/repo", root: "/home/ci/repo", want: ""},
		{name: "dot", file: ".", want: ""},
		{name: "empty", file: "", want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := repoPath(tc.file, tc.root); got != tc.want {
				t.Errorf("repoPath(%q, %q) = %q, want %q", tc.file, tc.root, got, tc.want)
			}
		})
	}
}

func TestSARIFURI(t *testing.T) {
	tests := []struct{ in, want string }{
		{"internal/a.go", "internal/a.go"},
		{"dir with space/a b.go", "dir%20with%20space/a%20b.go"},
		{"c:foo/x#y?z%.go", "c%3Afoo/x%23y%3Fz%25.go"},
		{"héllo/ü.py", "h%C3%A9llo/%C3%BC.py"},
		{"src/@scope/pkg+x,y=1.ts", "src/@scope/pkg+x,y=1.ts"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := sarifURI(tc.in); got != tc.want {
				t.Errorf("sarifURI(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestSARIFWithinGitHubLimits: a report of 30,000 findings writes the 5,000
// most severe, each with a fingerprint of its own, and says what was cut.
func TestSARIFWithinGitHubLimits(t *testing.T) {
	rep := &gate.Report{}
	for i := range 30000 {
		sev := gate.SeverityMedium
		if i%10 == 0 {
			sev = gate.SeverityCritical
		}
		rep.Findings = append(rep.Findings, gate.Finding{ID: "RG-TD-same", Type: gate.TestDeletion, Severity: sev, File: "a_test.go",
			Line: i + 1, Net: true, Message: strings.Repeat("m", 5000)})
	}
	out := render(t, SARIF, rep, Options{})
	log := checkSARIF(t, out)
	res := log.Runs[0].Results
	if len(res) != maxSARIFResults {
		t.Fatalf("%d results, want %d", len(res), maxSARIFResults)
	}
	if res[0].Level != "error" || res[2999].Level != "error" || res[3000].Level != "warning" {
		t.Errorf("not most severe first: %s %s %s", res[0].Level, res[2999].Level, res[3000].Level)
	}
	seen := map[string]bool{}
	for _, r := range res {
		fp := r.PartialFingerprints[fingerprintKey]
		if seen[fp] {
			t.Fatalf("fingerprint %s repeated", fp)
		}
		seen[fp] = true
		if len(r.Message.Text) > maxSARIFMessage {
			t.Fatalf("message of %d bytes", len(r.Message.Text))
		}
	}
	notes := log.Runs[0].Invocations[0].ToolExecutionNotifications
	if len(notes) == 0 || !strings.Contains(notes[len(notes)-1].Message.Text, "25000 more findings are not in this file") {
		t.Errorf("no line says what was cut: %+v", notes)
	}
	if len(out) > 20<<20 {
		t.Errorf("SARIF of %d bytes", len(out))
	}
}
