package report

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Fixed commits of the fixture range: an agent's three iterations.
const (
	shaBase = "9c4e2b7f1a0d3c5e8b6a4f2d1c0e9b8a7f6e5d4c"
	shaC1   = "1f3a5c7e9b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a"
	shaC2   = "2a4c6e8b0d1f3a5c7e9b2d4f6a8c0e1b3d5f7a9c"
	shaC3   = "3b5d7f9a1c2e4b6d8f0a2c4e6b8d0f1a3c5e7b9d"
)

func intp(v int) *int { return &v }

// fullReport is a blocked range with every kind of finding: net, transient,
// suppressed, without a file, on a whole file, plus notes and partial metrics.
func fullReport() *gate.Report {
	findings := []gate.Finding{
		{
			ID:   gate.MakeID(gate.TestDeletion, "test-removed", "internal/parse/parse_test.go", "TestParseEmpty", ""),
			Type: gate.TestDeletion, Severity: gate.SeverityCritical,
			File: "internal/parse/parse_test.go", Line: 42, Test: "TestParseEmpty", Commit: shaC2, Net: true,
			Message:  "Test TestParseEmpty was deleted and no test with its body exists at HEAD.",
			Evidence: gate.EvidenceMeasured, Rule: "test-removed",
		},
		{
			ID:   gate.MakeID(gate.AssertionWeakening, "matcher-weakened", "web/src/cart.test.ts", "cart > totals > adds tax", "toEqual"),
			Type: gate.AssertionWeakening, Severity: gate.SeverityHigh,
			File: "web/src/cart.test.ts", Line: 17, Test: "cart > totals > adds tax", Commit: shaC3, Net: true,
			Message:  "expect(total).toEqual(107) | expect(tax).toBe(7) weakened to expect(total).toBeDefined()",
			Evidence: gate.EvidenceStatic, Rule: "matcher-weakened",
		},
		{
			ID:   gate.MakeID(gate.TestSkipping, "skip-mark", "tests/test_api.py", "test_login", ""),
			Type: gate.TestSkipping, Severity: gate.SeverityHigh,
			File: "tests/test_api.py", Line: 88, Test: "test_login", Commit: shaC1, Net: false,
			Message:  "test_login was marked @pytest.mark.skip(reason=\"flaky\")",
			Evidence: gate.EvidenceStatic, Rule: "skip-mark",
		},
		{
			ID:   gate.MakeID(gate.ErrorSuppression, "ts-ignore", "src/gen/client.ts", "", "@ts-ignore"),
			Type: gate.ErrorSuppression, Severity: gate.SeverityMedium,
			File: "src/gen/client.ts", Line: 3, Commit: shaC2, Net: true,
			Message:  "Added // @ts-ignore above a call with a type error.",
			Evidence: gate.EvidenceStatic, Rule: "ts-ignore",
			Suppressed: "generated client, see ADR-12",
		},
		{
			ID:   gate.MakeID(gate.CoverageRegression, "coverage-overall", "", "", ""),
			Type: gate.CoverageRegression, Severity: gate.SeverityHigh, Net: true,
			Message:       "Coverage fell from 81.25% to 78.50%, beyond the 0.5 point tolerance.",
			BaselineValue: gate.Float(81.25), CurrentValue: gate.Float(78.5),
			Evidence: gate.EvidenceMeasured, Rule: "coverage-overall",
		},
		{
			ID:   gate.MakeID(gate.ValidationBypass, "or-true", ".github/workflows/ci.yml", "", "npm test"),
			Type: gate.ValidationBypass, Severity: gate.SeverityCritical,
			File: ".github/workflows/ci.yml", Commit: shaC3, Net: true,
			Message:  "`|| true` appended to the test step: npm test || true\nThe step can no longer fail.",
			Evidence: gate.EvidenceStatic, Rule: "or-true",
		},
		{
			ID:   gate.MakeID(gate.FeatureRemoval, "export-removed", "internal/parse/config.go", "Config.Strict", ""),
			Type: gate.FeatureRemoval, Severity: gate.SeverityMedium,
			File: "internal/parse/config.go", Line: 12, Symbol: "Config.Strict", Commit: shaC3, Net: true,
			Message:  "Exported field Config.Strict removed: callers break, no replacement.",
			Evidence: gate.EvidenceStatic, Rule: "export-removed",
		},
	}
	return &gate.Report{
		Schema: gate.Schema,
		Tool:   gate.Tool{Name: "ralph-gate", Version: "v0.3.0"},
		Base:   shaBase,
		Head:   shaC3,
		Commits: []gate.Commit{
			{SHA: shaC1, Subject: "Skip the flaky login test", Findings: 1},
			{SHA: shaC2, Subject: "Simplify parser, drop empty-input case", Findings: 2},
			{SHA: shaC3, Subject: "Fix cart totals | make CI green", Findings: 3},
		},
		Findings: findings,
		Metrics: &gate.MetricsPair{
			Base: &gate.Metrics{
				TestCount: intp(150), CoveragePercentage: gate.Float(81.25), BranchCoveragePercentage: gate.Float(75), LintErrors: intp(3),
				LintWarnings: intp(10), FileCount: intp(40),
				Tests: &gate.TestStats{Total: 150, Passed: 148, Failed: 2},
			},
			Head: &gate.Metrics{
				TestCount: intp(148), CoveragePercentage: gate.Float(78.5), BranchCoveragePercentage: gate.Float(68.75), LintErrors: intp(2),
				FileCount: intp(41), LinesOfCode: intp(5230),
				Tests: &gate.TestStats{Total: 148, Passed: 145, Failed: 1, Skipped: 2},
			},
		},
		Verdict: gate.VerdictBlock,
		FailOn:  gate.SeverityHigh,
		Notes: []gate.Note{
			{File: "assets/logo.png", Message: "skipped binary file"},
			{Message: "golangci-lint is not installed; lint warnings not measured at HEAD"},
		},
		Counts: map[string]int{"critical": 2, "high": 1, "medium": 1},
		ChangedLineCoverage: &gate.ChangedLines{
			Percentage: gate.Float(62.5), Covered: 10, Total: 16, Unit: "line", Min: gate.Float(80),
			Files: []gate.ChangedFileCoverage{
				{File: "src/cart.ts", Covered: 4, Total: 10, Percentage: 40, Uncovered: []int{12, 13, 14, 20, 31, 32}},
				{File: "src/parse.ts", Covered: 6, Total: 6, Percentage: 100, Uncovered: []int{}},
			},
			Unmeasured: []string{"src/new|file.ts"},
		},
	}
}

// warnReport has only a medium finding under fail-on high, from a patch with no
// commits.
func warnReport() *gate.Report {
	return &gate.Report{
		Schema: gate.Schema,
		Tool:   gate.Tool{Name: "ralph-gate", Version: "v0.3.0"},
		Findings: []gate.Finding{{
			ID:   gate.MakeID(gate.ErrorSuppression, "nolint", "pkg/db/conn.go", "", "//nolint:errcheck"),
			Type: gate.ErrorSuppression, Severity: gate.SeverityMedium, File: "pkg/db/conn.go", Line: 57, Net: true,
			Message:  "Added //nolint:errcheck to conn.Close().",
			Evidence: gate.EvidenceStatic, Rule: "nolint",
		}},
		Verdict: gate.VerdictWarn,
		FailOn:  gate.SeverityHigh,
	}
}

// emptyReport is a clean range: no findings, no metrics, nil slices.
func emptyReport() *gate.Report {
	return &gate.Report{
		Schema:  gate.Schema,
		Tool:    gate.Tool{Name: "ralph-gate", Version: "v0.3.0"},
		Base:    shaBase,
		Head:    shaC1,
		Verdict: gate.VerdictPass,
		FailOn:  gate.SeverityHigh,
	}
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run go test -update): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}
