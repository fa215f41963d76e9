package ci

import (
	"testing"
)

// FuzzJobsOffPath reads arbitrary CI YAML as the off-path checks do: no
// panic, and a line outside every job is never off the path.
func FuzzJobsOffPath(f *testing.F) {
	f.Add([]byte("race:\n  rules:\n    - if: '$CI_PIPELINE_SOURCE == \"schedule\"'\n  script:\n    - go test ./...\n  allow_failure: true\n"), 6)
	f.Add([]byte("race:\n  only:\n    refs: [schedules, web]\n"), 2)
	f.Add([]byte("on: [pull_request]\njobs:\n  a:\n    if: github.event_name == 'schedule'\n    continue-on-error: true\n    steps:\n      - run: go test\n        if: false\n"), 5)
	f.Add([]byte("jobs: [1, 2]\n"), 1)
	f.Add([]byte("jobs:\n  a: 1\n  b:\n    steps: x\n"), 4)
	f.Fuzz(func(t *testing.T, data []byte, line int) {
		if _, off := gitlabJobOffPath(data, line); off && line < 1 {
			t.Errorf("line %d is off the path", line)
		}
		gitlabJobNamedOffPath(data, "race")
		job := workflowJobAt(data, line)
		lineOffPR(job, line)
		workflowJobOffPR(data, "a")
		jobLevelContext(job, SplitLines(data), line)
	})
}
