package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// A check that may now fail in a workflow or job no change starts (a
// schedule, a person) gates no pull request: visible as a medium, never
// silent and never a block. Where BASE ran it on pull requests, or the
// condition lets a pull request in, it is a bypass.
func TestFailureAllowedOffChangePath(t *testing.T) {
	nightly := "name: nightly\non:\n  schedule:\n    - cron: '0 3 * * *'\n  workflow_dispatch:\njobs:\n  race:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: go test -race ./...\n"
	coe := strings.Replace(nightly, "      - run: go test -race ./...\n", "      - run: go test -race ./...\n        continue-on-error: true\n", 1)
	onPR := strings.Replace(nightly, "on:\n", "on:\n  pull_request:\n", 1)
	jobIf := strings.Replace(onPR, "  race:\n", "  race:\n    if: github.event_name == 'schedule'\n", 1)
	jobIfCOE := strings.Replace(jobIf, "    runs-on: ubuntu-latest\n", "    runs-on: ubuntu-latest\n    continue-on-error: true\n", 1)
	gl := "test:\n  script:\n    - go test ./...\n\nrace:\n  rules:\n    - if: '$CI_PIPELINE_SOURCE == \"schedule\"'\n  script:\n    - go test -race ./...\n"
	glAllow := strings.Replace(gl, "    - go test -race ./...\n", "    - go test -race ./...\n  allow_failure: true\n", 1)
	glOr := strings.ReplaceAll(gl, `"schedule"'`, `"schedule" || $CI_PIPELINE_SOURCE == "merge_request_event"'`)
	glOnly := strings.Replace(gl, "  rules:\n    - if: '$CI_PIPELINE_SOURCE == \"schedule\"'\n", "  only:\n    - schedules\n", 1)
	wf := ".github/workflows/nightly.yml"
	for _, tc := range []struct {
		name string
		file FileChange
		sev  gate.Severity
	}{
		{"schedule-only workflow", mod(wf, nightly, coe), gate.SeverityMedium},
		{"schedule-only job of a pull-request workflow", mod(wf, jobIf, jobIfCOE), gate.SeverityMedium},
		{"job made schedule-only in the same change", mod(wf, onPR, jobIfCOE), gate.SeverityCritical},
		{"workflow made schedule-only in the same change", mod(wf, onPR, coe), gate.SeverityCritical},
		{"workflow_run after the pull request's CI", mod(wf, strings.Replace(nightly, "  schedule:\n    - cron: '0 3 * * *'\n", "  workflow_run:\n    workflows: [ci]\n", 1), strings.Replace(coe, "  schedule:\n    - cron: '0 3 * * *'\n", "  workflow_run:\n    workflows: [ci]\n", 1)), gate.SeverityCritical},
		{"workflow also on push", mod(wf, strings.Replace(nightly, "on:\n", "on:\n  push:\n", 1), strings.Replace(coe, "on:\n", "on:\n  push:\n", 1)), gate.SeverityCritical},
		{"gitlab schedule rule", mod(".gitlab-ci.yml", gl, glAllow), gate.SeverityMedium},
		{"gitlab only schedules", mod(".gitlab-ci.yml", glOnly, strings.Replace(glOnly, "    - go test -race ./...\n", "    - go test -race ./...\n  allow_failure: true\n", 1)), gate.SeverityMedium},
		{"gitlab rule or-ed with merge requests", mod(".gitlab-ci.yml", glOr, strings.Replace(glOr, "    - go test -race ./...\n", "    - go test -race ./...\n  allow_failure: true\n", 1)), gate.SeverityCritical},
		{"gitlab job moved to schedules in the same change", mod(".gitlab-ci.yml", strings.Replace(gl, "  rules:\n    - if: '$CI_PIPELINE_SOURCE == \"schedule\"'\n", "", 1), glAllow), gate.SeverityCritical},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range run(tc.file) {
				if f.Type == gate.ValidationBypass && (f.Rule == "continue-on-error" || f.Rule == "failure-allowed") {
					if f.Severity == tc.sev {
						return
					}
					got = append(got, f.Severity.String()+" "+f.Message)
				}
			}
			t.Errorf("want a %s continue-on-error/failure-allowed finding, got %v", tc.sev, got)
		})
	}
}
