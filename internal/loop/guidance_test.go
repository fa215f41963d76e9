package loop

import (
	"os"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

func TestFingerprintIgnoresNumbers(t *testing.T) {
	a := Fingerprint([]string{"b", "a"}, &state.CompletionCheck{ExitCode: 1, Output: "FAIL TestX (0.12s)"})
	b := Fingerprint([]string{"a", "b"}, &state.CompletionCheck{ExitCode: 1, Output: "FAIL TestX (3.40s)"})
	c := Fingerprint([]string{"a"}, &state.CompletionCheck{ExitCode: 1, Output: "FAIL TestX (3.40s)"})
	if a == "" || a != b || a == c {
		t.Errorf("fingerprints %q %q %q: want the first two equal and the third different", a, b, c)
	}
	if f := Fingerprint(nil, &state.CompletionCheck{Passed: true}); f != "" {
		t.Errorf("nothing failed but the fingerprint is %q", f)
	}
}

func TestReinforcementEscalation(t *testing.T) {
	tests := []struct {
		name       string
		level      string
		scores     []float64
		regression bool
		recovering bool
		want       string
	}{
		{"iteration 1 stays minimal", "MINIMAL", []float64{10}, false, false, "MINIMAL"},
		{"iteration 3 is standard", "MINIMAL", []float64{10, 30}, false, false, "STANDARD"},
		{"iteration 5 is aggressive", "STANDARD", []float64{10, 30, 50, 70}, false, false, "AGGRESSIVE"},
		{"plateau is aggressive", "MINIMAL", []float64{40, 41, 42, 43}, false, false, "AGGRESSIVE"},
		{"regression is aggressive", "MINIMAL", []float64{10}, true, false, "AGGRESSIVE"},
		{"recovery is adaptive", "MINIMAL", []float64{10}, true, true, "ADAPTIVE"},
		{"off stays off", "OFF", []float64{10, 11, 12, 13, 14}, true, true, "OFF"},
		{"never de-escalates", "AGGRESSIVE", []float64{10}, false, false, "AGGRESSIVE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := loopWith(tt.scores...)
			st.ReinforcementLevel = tt.level
			if strings.HasPrefix(tt.name, "plateau") {
				st.RalphGate.Settings.Escalation = nil // the plateau alone
			}
			cur := &st.IterationHistory[len(st.IterationHistory)-1]
			cur.Regression = tt.regression
			got, _ := NextLevel(st, cur, tt.recovering)
			if got != tt.want {
				t.Errorf("NextLevel = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestDiagnoseRules(t *testing.T) {
	tests := []struct {
		name string
		ev   Evidence
		want string
	}{
		{"deleted test", Evidence{Findings: []gate.Finding{{Type: gate.TestDeletion, Severity: gate.SeverityCritical}}}, CauseRewardHacking},
		{"huge diff", Evidence{ChangedFiles: 80}, CauseCognitiveLoad},
		{"tests pass, completion fails", Evidence{TestsMeasured: true}, CauseAmbiguity},
		{"repeated failure", Evidence{FailStreak: 3, TestsMeasured: true, TestsFailing: 2}, CauseComplexity},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := Diagnose(tt.ev); d.Cause != tt.want || d.Confidence <= 0 || d.Confidence > 1 {
				t.Errorf("Diagnose = %+v, want %s", d, tt.want)
			}
		})
	}
}

func TestPromptLevels(t *testing.T) {
	st := loopWith(60, -70)
	st.Task, st.CompletionCriteria, st.Iteration = "fix auth", "go test ./...", 2
	st.Configuration.MaxIterations = 10
	last := &st.IterationHistory[1]
	last.Decision, last.Reason = string(Blocked), "blocked: critical test_deletion"
	last.Findings = []gate.Finding{{ID: "x", Type: gate.TestDeletion, Severity: gate.SeverityCritical, File: "auth_test.go", Line: 9, Test: "TestLogin", Net: true}}
	for level, want := range map[string]string{"OFF": "", "MINIMAL": "fix the code under test", "STANDARD": "Task: fix auth", "AGGRESSIVE": "MANDATORY"} {
		st.ReinforcementLevel = level
		got := Prompt(st)
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("%s prompt lacks %q:\n%s", level, want, got)
		}
		if level != "OFF" && !strings.Contains(got, "restore the test TestLogin (auth_test.go:9), deleted in iteration 2") {
			t.Errorf("%s prompt does not name the evidence:\n%s", level, got)
		}
	}
	st.RalphGate.NoFeedback = true
	if got := Prompt(st); strings.Contains(got, "TestLogin") {
		t.Errorf("no_feedback prompt shows findings:\n%s", got)
	}
}

func TestSlugIDAndExclude(t *testing.T) {
	for task, want := range map[string]string{
		"Fix the failing AUTH tests!": "fix-the-failing-auth-tests",
		"  ":                          "loop",
		"a very long task description that goes on and on": "a-very-long-task-description",
	} {
		if got := state.Slug(task); got != want {
			t.Errorf("Slug(%q) = %q, want %q", task, got, want)
		}
	}
	id, err := state.NewID("fix-it")
	if err != nil || !state.ValidID(id) || !strings.HasPrefix(id, "ralph-fix-it-") {
		t.Errorf("NewID = %q, %v", id, err)
	}
	dir := t.TempDir()
	for i := 0; i < 2; i++ {
		if err := state.Exclude(dir); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := readFile(dir + "/info/exclude")
	if strings.Count(data, "/.aiwg/ralph/") != 1 {
		t.Errorf("info/exclude after two calls:\n%s", data)
	}
}

func TestLockIsExclusive(t *testing.T) {
	s := state.NewStore(t.TempDir())
	l, err := s.Lock("ralph-x-0a1b2c3d", "record", 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Lock("ralph-x-0a1b2c3d", "record", 0)
	if err == nil || !strings.Contains(err.Error(), "is locked by ralph-gate record (pid") {
		t.Errorf("second lock: %v", err)
	}
	l.Unlock()
	l2, err := s.Lock("ralph-x-0a1b2c3d", "record", 0)
	if err != nil {
		t.Errorf("lock after unlock: %v", err)
	}
	l2.Unlock()
}

func readFile(p string) (string, error) {
	b, err := os.ReadFile(p)
	return string(b), err
}
