package main

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const reviewdogVersion = "v0.21.0"

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
		"ci":      ".github/workflows/ci.yml:8: critical: `go test ./...` in .github/workflows/ci.yml no longer fails the build when it fails: `|| true` replaces its exit status. (validation_bypass/exit-status-dropped)",
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
