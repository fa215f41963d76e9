//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/aiwgschema"
)

// The scripted loops below drive the real binary the way a shell loop around
// an agent does: the test plays the agent, committing each iteration, and
// calls start, record, prompt, reject, best and the rest.

const loopCalcSrc = `package calc

// Add adds.
func Add(a, b int) int { return a - b }

// Sub subtracts.
func Sub(a, b int) int { return a + b }

// Mul multiplies.
func Mul(a, b int) int { return a * b }
`

const loopCalcTest = `package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestSub(t *testing.T) {
	if got := Sub(5, 3); got != 2 {
		t.Errorf("Sub(5, 3) = %d, want 2", got)
	}
}

func TestMul(t *testing.T) {
	if got := Mul(2, 3); got != 6 {
		t.Errorf("Mul(2, 3) = %d, want 6", got)
	}
}
`

// loopModule is a Go module whose Add and Sub are wrong: TestAdd and TestSub
// fail at the baseline.
func loopModule(t *testing.T) *repo {
	r := newRepo(t)
	r.write("go.mod", "module example.com/calc\n\ngo 1.26\n")
	r.write("calc.go", loopCalcSrc)
	r.write("calc_test.go", loopCalcTest)
	r.commit("base")
	return r
}

type recordOut struct {
	LoopID       string  `json:"loop_id"`
	Iteration    int     `json:"iteration"`
	QualityScore float64 `json:"quality_score"`
	QualityDelta float64 `json:"quality_delta"`
	Decision     string  `json:"decision"`
	Reason       string  `json:"reason"`
	Tag          string  `json:"tag"`
	Commit       string  `json:"commit"`
	Void         bool    `json:"void"`
	Verified     bool    `json:"verified"`
	Gate         string  `json:"gate"`
	Findings     []struct {
		Type, Severity, Test, File, Rule string
	} `json:"findings"`
}

func record(t *testing.T, r *repo, wantCode int) recordOut {
	t.Helper()
	res := runGate(t, r.dir, "", "record", "--format", "json")
	if res.code != wantCode {
		t.Fatalf("record: exit %d, want %d\nstdout: %s\nstderr: %s", res.code, wantCode, res.stdout, res.stderr)
	}
	var out recordOut
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
		t.Fatalf("record output is not JSON: %v\n%s", err, res.stdout)
	}
	return out
}

func (o recordOut) has(typ, severity, test string) bool {
	for _, f := range o.Findings {
		if f.Type == typ && (severity == "" || f.Severity == severity) && (test == "" || f.Test == test) {
			return true
		}
	}
	return false
}

var loopIDRe = regexp.MustCompile(`^ralph-[a-z0-9-]+-[a-f0-9]{8}$`)

func startLoop(t *testing.T, r *repo, args ...string) string {
	t.Helper()
	res := runGate(t, r.dir, "", append([]string{"start"}, args...)...)
	if res.code != 0 {
		t.Fatalf("start: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	id := strings.TrimSpace(res.stdout)
	if !loopIDRe.MatchString(id) {
		t.Fatalf("start printed %q, want a loop id", id)
	}
	return id
}

// validateLoopFiles checks state.json, registry.json and analytics.json
// against AIWG's schemas.
func validateLoopFiles(t *testing.T, r *repo, id string) {
	t.Helper()
	dir := filepath.Join(r.dir, ".aiwg", "ralph")
	for name, validate := range map[string]func([]byte) error{
		filepath.Join("loops", id, "state.json"):                  aiwgschema.ValidateState,
		"registry.json":                                           aiwgschema.ValidateRegistry,
		filepath.Join("loops", id, "analytics", "analytics.json"): aiwgschema.ValidateAnalytics,
	} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if os.IsNotExist(err) && strings.HasSuffix(name, "analytics.json") {
			continue // written from the first record on
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := validate(data); err != nil {
			t.Errorf("%s does not validate against the AIWG schema: %v", name, err)
		}
	}
}

func readState(t *testing.T, r *repo, id string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(r.dir, ".aiwg", "ralph", "loops", id, "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("state.json: %v", err)
	}
	return m
}

// TestLoopCheatIsBlockedAndRejected: an honest fix, a cheat that deletes the
// other failing test (blocked, void, rejected by the human, restored as a new
// commit), then the real fix, which passes the completion command and stops
// the loop.
func TestLoopCheatIsBlockedAndRejected(t *testing.T) {
	slow(t)
	t.Parallel()
	r := loopModule(t)
	id := startLoop(t, r, "--task", "fix the failing calc tests", "--completion", "go test ./...")
	if tags := r.git("tag", "--list", "ralph/*"); tags != "ralph/"+id+"/iter-000" {
		t.Fatalf("tags after start = %q", tags)
	}
	exclude, _ := os.ReadFile(filepath.Join(r.dir, ".git", "info", "exclude"))
	if !strings.Contains(string(exclude), "/.aiwg/ralph/") {
		t.Errorf(".git/info/exclude lacks .aiwg/ralph/:\n%s", exclude)
	}
	validateLoopFiles(t, r, id)

	// Iteration 1: an honest fix of Add.
	r.write("calc.go", strings.Replace(loopCalcSrc, "return a - b", "return a + b", 1))
	r.commit("iteration 1: fix Add")
	it1 := record(t, r, 0)
	if it1.Decision != "continue" || it1.Void || it1.Iteration != 1 || it1.Tag != "ralph/"+id+"/iter-001" {
		t.Fatalf("iteration 1 = %+v", it1)
	}
	if it1.QualityDelta <= 0 {
		t.Errorf("iteration 1 fixed a test but its quality delta is %v", it1.QualityDelta)
	}

	// Iteration 2: the cheat deletes the still failing TestSub.
	r.write("calc_test.go", strings.Split(loopCalcTest, "func TestSub")[0]+"func TestMul"+strings.Split(loopCalcTest, "func TestMul")[1])
	cheat := r.commit("iteration 2: tests pass now")
	it2 := record(t, r, 1)
	if it2.Decision != "blocked" || !it2.Void || !it2.has("test_deletion", "critical", "TestSub") {
		t.Fatalf("iteration 2 (a deleted test) = %+v", it2)
	}
	if files := r.git("ls-files", ".aiwg"); files != "" {
		t.Errorf("loop state was committed: %s", files)
	}
	// The loop waits for the human: record refuses, prompt names the cheat.
	if res := runGate(t, r.dir, "", "record"); res.code != 1 || !strings.Contains(res.stderr, "waiting for a human decision") {
		t.Errorf("record while a decision is pending: exit %d, stderr %s", res.code, res.stderr)
	}
	prompt := runGate(t, r.dir, "", "prompt")
	if prompt.code != 0 || !strings.Contains(prompt.stdout, "restore the test TestSub") || !strings.Contains(prompt.stdout, "iteration 2") {
		t.Errorf("prompt does not name the deleted test and its iteration:\n%s", prompt.stdout)
	}
	status := runGate(t, r.dir, "", "status")
	if !strings.Contains(status.stdout, "Waiting for a human decision on iteration 2") {
		t.Errorf("status does not show the pending decision:\n%s", status.stdout)
	}
	validateLoopFiles(t, r, id)

	// A decision from a script (no terminal) must say who decides: an agent
	// cannot approve its own iteration anonymously.
	for _, op := range []string{"approve", "reject"} {
		if res := runGate(t, r.dir, "", op); res.code != 2 || !strings.Contains(res.stderr, "--by NAME") {
			t.Errorf("%s without --by: exit %d, %s", op, res.code, res.stderr)
		}
	}
	// The human rejects it: iteration 1's tree comes back as a new commit.
	rej := runGate(t, r.dir, "", "reject", "--by", "reviewer")
	if rej.code != 0 || !strings.Contains(rej.stdout, "restored iteration 1") {
		t.Fatalf("reject: exit %d\n%s%s", rej.code, rej.stdout, rej.stderr)
	}
	if st := readState(t, r, id); !strings.Contains(fmt.Sprint(st["recovery_history"]), "reject - by reviewer; restored iteration 1") {
		t.Errorf("the decision does not name its decider: %v", st["recovery_history"])
	}
	if parent := r.git("rev-parse", "HEAD^"); parent != cheat {
		t.Errorf("the restore commit's parent is %s, want the rejected iteration %s (history is kept)", parent, cheat)
	}
	if diff := r.git("diff", "ralph/"+id+"/iter-001", "HEAD"); diff != "" {
		t.Errorf("the restored tree differs from iteration 1:\n%s", diff)
	}

	// Iteration 3: the real fix.
	r.write("calc.go", strings.NewReplacer("return a - b", "return a + b", "return a + b }\n\n// Mul", "return a - b }\n\n// Mul").Replace(loopCalcSrc))
	r.commit("iteration 3: fix Sub")
	it3 := record(t, r, 4)
	if it3.Decision != "stop" || !it3.Verified || !strings.Contains(it3.Reason, "completion command passed") {
		t.Fatalf("iteration 3 = %+v", it3)
	}
	best := runGate(t, r.dir, "", "best", "--checkout")
	if best.code != 0 || !strings.Contains(best.stdout, "iteration 3") {
		t.Fatalf("best: exit %d\n%s%s", best.code, best.stdout, best.stderr)
	}
	if head, tag := r.git("rev-parse", "HEAD"), r.git("rev-parse", "ralph/"+id+"/iter-003^{commit}"); head != tag {
		t.Errorf("HEAD after best --checkout = %s, want iter-003 %s", head, tag)
	}
	st := readState(t, r, id)
	if st["status"] != "completed" {
		t.Errorf("status = %v, want completed", st["status"])
	}
	events := st["regression_events"].([]any)
	ev := events[0].(map[string]any)
	if ev["regression_type"] != "test_deletion" || ev["human_decision"] != "reject" || ev["iteration"] != 2.0 {
		t.Errorf("first regression event = %v", ev)
	}
	validateLoopFiles(t, r, id)
	analytics := runGate(t, r.dir, "", "analytics")
	if analytics.code != 0 || !strings.Contains(analytics.stdout, "Stopping: the completion command passed") {
		t.Errorf("analytics:\n%s%s", analytics.stdout, analytics.stderr)
	}
}

// TestLoopBestIsNotTheLast: quality is not monotonic. Iteration 2 fixes both
// tests' code but the completion command (which also wants a NOTES file) still
// fails; iteration 3 breaks Add again. The improvement criterion stops the
// loop and best checks out iteration 2, not the last one.
func TestLoopBestIsNotTheLast(t *testing.T) {
	slow(t)
	t.Parallel()
	r := loopModule(t)
	id := startLoop(t, r, "--task", "fix calc", "--completion", "go test ./... && test -f NOTES")
	r.write("calc.go", strings.Replace(loopCalcSrc, "return a - b", "return a + b", 1))
	r.commit("iteration 1")
	if it := record(t, r, 0); it.Decision != "continue" {
		t.Fatalf("iteration 1 = %+v", it)
	}
	fixed := strings.NewReplacer("return a - b", "return a + b", "return a + b }\n\n// Mul", "return a - b }\n\n// Mul").Replace(loopCalcSrc)
	r.write("calc.go", fixed)
	r.commit("iteration 2")
	it2 := record(t, r, 0)
	if it2.Decision != "continue" || it2.QualityDelta < 5 {
		t.Fatalf("iteration 2 = %+v", it2)
	}
	r.write("calc.go", strings.Replace(fixed, "return a + b", "return a * b", 1))
	r.commit("iteration 3: worse")
	// TestAdd passed in iteration 2 and fails now: a test_regression, against
	// the previous iteration, which makes iteration 3 a regression to retry.
	it3 := record(t, r, 0)
	if !it3.has("test_regression", "high", "example.com/calc.TestAdd") || !strings.Contains(it3.Reason, "regression in iteration 3") {
		t.Fatalf("iteration 3 = %+v", it3)
	}
	best := runGate(t, r.dir, "", "best", "--format", "json")
	var b struct {
		Iteration int    `json:"iteration"`
		Tag       string `json:"tag"`
	}
	if err := json.Unmarshal([]byte(best.stdout), &b); err != nil || b.Iteration != 2 {
		t.Fatalf("best = %s (%v), want iteration 2", best.stdout, err)
	}
	// A dirty work tree: --checkout refuses and changes nothing.
	before := r.git("rev-parse", "HEAD")
	r.write("calc.go", fixed+"// edit\n")
	if res := runGate(t, r.dir, "", "best", "--checkout"); res.code != 2 || !strings.Contains(res.stderr, "uncommitted changes") {
		t.Errorf("best --checkout on a dirty tree: exit %d, stderr %s", res.code, res.stderr)
	}
	if r.git("rev-parse", "HEAD") != before {
		t.Error("best --checkout moved HEAD on a dirty tree")
	}
	r.git("checkout", "--", "calc.go")
	if res := runGate(t, r.dir, "", "best", "--checkout"); res.code != 0 {
		t.Fatalf("best --checkout: exit %d %s", res.code, res.stderr)
	}
	if head := r.git("rev-parse", "HEAD"); head != r.git("rev-parse", b.Tag+"^{commit}") {
		t.Errorf("HEAD = %s, want %s", head, b.Tag)
	}
	q := runGate(t, r.dir, "", "status", "--quality", "--loop", id)
	if !strings.Contains(q.stdout, "Iteration 2:") || !strings.Contains(q.stdout, "BEST") {
		t.Errorf("status --quality:\n%s", q.stdout)
	}
	csv := filepath.Join(t.TempDir(), "analytics.csv")
	if res := runGate(t, r.dir, "", "analytics", "--export", csv); res.code != 0 {
		t.Fatalf("analytics --export: exit %d %s", res.code, res.stderr)
	}
	if data, _ := os.ReadFile(csv); !strings.HasPrefix(string(data), "iteration,timestamp,quality_score") || strings.Count(string(data), "\n") != 4 {
		t.Errorf("exported CSV:\n%s", data)
	}
	validateLoopFiles(t, r, id)
}

// slowCompletion is a completion script that fails with a changing message
// (so the loop is not stuck) and, when the file SLOW exists in dir (the
// test's checkout: the command itself runs in a temporary worktree of the
// recorded commit), announces itself there and sleeps.
func slowCompletion(dir string) string {
	q := "'" + strings.ReplaceAll(dir, "'", `'\''`) + "'"
	return "#!/bin/sh\nif [ -f " + q + "/SLOW ]; then touch " + q + "/STARTED; sleep 30; fi\ncat progress.txt 2>/dev/null\nexit 1\n"
}

// TestLoopPlateauStops: with the improvement criterion off, iterations that do
// not move the quality stop the loop once the plateau window is full.
func TestLoopPlateauStops(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	r.write(".ralph-gate.yml", "loop:\n  stop:\n    improvement: 0\n")
	r.write("check.sh", slowCompletion(r.dir))
	r.commit("config")
	startLoop(t, r, "--task", "make progress", "--completion", "sh check.sh", "--collect", "none")
	for i, word := range []string{"alpha", "beta", "gamma"} {
		r.write("progress.txt", word+"\n")
		r.commit("iteration " + word)
		want := 0
		if i == 2 {
			want = 4
		}
		out := record(t, r, want)
		if i == 2 && !strings.Contains(out.Reason, "quality plateau") {
			t.Errorf("iteration 3 stopped for %q, want the plateau", out.Reason)
		}
	}
}

// TestLoopKill9DuringRecord kills record while the completion command runs:
// the state stays parseable, the lock is released, and recording again works.
func TestLoopKill9DuringRecord(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	r.write("check.sh", slowCompletion(r.dir))
	r.commit("script")
	id := startLoop(t, r, "--task", "slow", "--completion", "sh check.sh", "--collect", "none")
	statePath := filepath.Join(r.dir, ".aiwg", "ralph", "loops", id, "state.json")
	before, _ := os.ReadFile(statePath)
	r.write("progress.txt", "one\n")
	r.commit("iteration 1")
	if err := os.WriteFile(filepath.Join(r.dir, "SLOW"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "record")
	cmd.Dir = r.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	started := filepath.Join(r.dir, "STARTED")
	for i := 0; i < 600; i++ {
		if _, err := os.Stat(started); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := os.Stat(started); err != nil {
		t.Fatal("record never ran the completion command")
	}
	// A second record while the first holds the lock fails clearly.
	if res := runGate(t, r.dir, "", "record"); res.code != 2 || !strings.Contains(res.stderr, "is locked by ralph-gate record (pid") {
		t.Errorf("concurrent record: exit %d, stderr %s", res.code, res.stderr)
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Wait()

	after, _ := os.ReadFile(statePath)
	if string(after) != string(before) {
		t.Error("state.json changed although record was killed before it saved")
	}
	if res := runGate(t, r.dir, "", "status", "--format", "json"); res.code != 0 {
		t.Fatalf("status after kill -9: exit %d %s", res.code, res.stderr)
	}
	os.Remove(filepath.Join(r.dir, "SLOW"))
	out := record(t, r, 0)
	if out.Iteration != 1 {
		t.Errorf("record after the kill recorded iteration %d, want 1", out.Iteration)
	}
	validateLoopFiles(t, r, id)
}

// TestLoopTransitionsAndErrors: pause/resume/abort follow loop-state.yaml, an
// illegal one lists the allowed ones, and bad input is one line with exit 2.
func TestLoopTransitionsAndErrors(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	if res := runGate(t, r.dir, "", "record"); res.code != 2 || !strings.Contains(res.stderr, "no loop in") {
		t.Errorf("record without a loop: exit %d, stderr %s", res.code, res.stderr)
	}
	if res := runGate(t, r.dir, "", "start", "--task", "x"); res.code != 2 || !strings.Contains(res.stderr, "--completion is required") {
		t.Errorf("start without --completion: exit %d, stderr %s", res.code, res.stderr)
	}
	id := startLoop(t, r, "--task", "transitions", "--completion", "false", "--collect", "none")
	if res := runGate(t, r.dir, "", "record"); res.code != 2 || !strings.Contains(res.stderr, "already recorded") {
		t.Errorf("record without a new commit: exit %d, stderr %s", res.code, res.stderr)
	}
	steps := []struct {
		cmd, want string
		code      int
	}{
		{"resume", "allowed from running: paused, completing, aborted, crashed, failed", 2},
		{"pause", "running -> paused", 0},
		{"pause --format json", "allowed from paused", 2},
		{"pause", "allowed from paused: running, aborted", 2},
		{"resume --format json", `"to": "running"`, 0},
		{"abort", "abort: standard input is not a terminal: say who decides with --by NAME", 2},
		{"abort --by ops", "running -> aborted", 0},
		{"resume", "allowed from aborted: none: it is finished", 2},
	}
	for _, s := range steps {
		res := runGate(t, r.dir, "", append(strings.Fields(s.cmd), "--loop", id)...)
		if res.code != s.code || !strings.Contains(res.stdout+res.stderr, s.want) {
			t.Errorf("%s: exit %d, output %q; want exit %d and %q", s.cmd, res.code, res.stdout+res.stderr, s.code, s.want)
		}
	}
	if res := runGate(t, r.dir, "", "status", "--loop", "nope"); res.code != 2 || !strings.Contains(res.stderr, "is not a loop id") {
		t.Errorf("status --loop nope: exit %d, stderr %s", res.code, res.stderr)
	}
	// A corrupt state.json is reported, never overwritten, and repair rebuilds it.
	statePath := filepath.Join(r.dir, ".aiwg", "ralph", "loops", id, "state.json")
	if err := os.WriteFile(statePath, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := runGate(t, r.dir, "", "status", "--loop", id); res.code != 2 || !strings.Contains(res.stderr, "is corrupt") || strings.Count(strings.TrimSpace(res.stderr), "\n") != 0 {
		t.Errorf("status on a corrupt state: exit %d, stderr %q", res.code, res.stderr)
	}
	if data, _ := os.ReadFile(statePath); string(data) != "{not json" {
		t.Error("the corrupt state.json was overwritten")
	}
	if res := runGate(t, r.dir, "", "repair", "--loop", id); res.code != 0 {
		t.Fatalf("repair: exit %d %s", res.code, res.stderr)
	}
	if st := readState(t, r, id); st["status"] != "aborted" {
		t.Errorf("repaired status = %v, want aborted", st["status"])
	}
	validateLoopFiles(t, r, id)
}

// TestLoopCrashedController: a loop started from a shell that exited has no
// controlling process, so it is running (never crashed) and pause and resume
// work. (A loop whose controller died is crashed: TestCrashed in the loop
// package, since no process here can name itself controller.)
func TestLoopCrashedController(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	// start from a shell that exits at once: no process controls the loop,
	// so it is running, not crashed, and pause and resume work.
	sh := exec.Command("sh", "-c", binary+" start --task crash --completion true --collect none 2>/dev/null")
	sh.Dir = r.dir
	out, err := sh.Output()
	if err != nil {
		t.Fatalf("start: %v\n%s", err, out)
	}
	if id := strings.TrimSpace(string(out)); !loopIDRe.MatchString(id) {
		t.Fatalf("start printed %q", out)
	}
	res := runGate(t, r.dir, "", "status")
	if res.code != 0 || !strings.Contains(res.stdout, ": running,") {
		t.Errorf("status of a loop whose shell exited:\n%s%s", res.stdout, res.stderr)
	}
	for _, op := range []string{"pause", "resume"} {
		if res := runGate(t, r.dir, "", op); res.code != 0 {
			t.Errorf("%s right after start: exit %d %s", op, res.code, res.stderr)
		}
	}
}

// TestLoopSealedState: the loop's files are sealed with a key outside the
// repository. An agent that edits state.json (to approve itself, or to name
// a controller) or the journal gets the loop refused, exit 2 naming the
// file; repair, a person's command, rebuilds it from the verified journal.
func TestLoopSealedState(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	id := startLoop(t, r, "--task", "seal", "--completion", "false", "--collect", "none")
	r.write("progress.txt", "one\n")
	r.commit("iteration 1")
	record(t, r, 0)
	dir := filepath.Join(r.dir, ".aiwg", "ralph", "loops", id)
	statePath, journalPath := filepath.Join(dir, "state.json"), filepath.Join(dir, "journal.jsonl")
	state, err := os.ReadFile(statePath)
	if err != nil {
		t.Fatal(err)
	}
	journal, err := os.ReadFile(journalPath)
	if err != nil {
		t.Fatal(err)
	}
	refused := func(what string, file string) {
		t.Helper()
		for _, args := range [][]string{{"status"}, {"record"}, {"best"}, {"approve", "--by", "agent"}} {
			res := runGate(t, r.dir, "", args...)
			if res.code != 2 || !strings.Contains(res.stderr, file) || !strings.Contains(res.stderr, "changed outside ralph-gate") {
				t.Errorf("%s: %v: exit %d, %s", what, args, res.code, res.stderr)
			}
		}
	}
	// An edit of state.json, however small.
	forged := strings.Replace(string(state), `"status": "running"`, `"status": "completed"`, 1)
	if forged == string(state) {
		t.Fatalf("state.json has no running status:\n%s", state)
	}
	os.WriteFile(statePath, []byte(forged), 0o644)
	refused("edited state.json", "state.json")
	// state.json without its seal.
	os.WriteFile(statePath, []byte(strings.Replace(string(state), `"seal"`, `"unsealed"`, 1)), 0o644)
	refused("unsealed state.json", "state.json")
	// The journal's last entry dropped: the state says it was written.
	os.WriteFile(statePath, state, 0o644)
	lines := strings.SplitAfter(strings.TrimSpace(string(journal)), "\n")
	os.WriteFile(journalPath, []byte(strings.Join(lines[:len(lines)-1], "")), 0o644)
	refused("truncated journal", "journal.jsonl")
	// An edited journal entry.
	os.WriteFile(journalPath, []byte(strings.Replace(string(journal), `"op":"record"`, `"op":"approve"`, 1)), 0o644)
	refused("edited journal", "journal.jsonl")
	// registry.json with the loop taken out of active_loops.
	os.WriteFile(journalPath, journal, 0o644)
	regPath := filepath.Join(r.dir, ".aiwg", "ralph", "registry.json")
	reg, err := os.ReadFile(regPath)
	if err != nil {
		t.Fatal(err)
	}
	tamperedReg := []byte(strings.Replace(string(reg), `"total_active": 1`, `"total_active": 0`, 1))
	os.WriteFile(regPath, tamperedReg, 0o644)
	refused("edited registry", "registry.json")

	// The loop's files put back as they were at an earlier iteration:
	// sealed, but old.
	os.WriteFile(regPath, reg, 0o644)
	r.write("progress.txt", "rollback\n")
	r.commit("iteration 2")
	record(t, r, 0)
	os.WriteFile(statePath, state, 0o644)
	os.WriteFile(journalPath, journal, 0o644)
	refused("files put back", "journal.jsonl")
	os.WriteFile(regPath, tamperedReg, 0o644)

	// repair rebuilds from the verified part of the journal, and the
	// registry from the loops' verified states.
	os.WriteFile(statePath, []byte(forged), 0o644)
	res := runGate(t, r.dir, "", "repair", "--loop", id)
	if res.code != 0 || !strings.Contains(res.stdout, "registry.json") || !strings.Contains(res.stdout, "ralph/"+id+"/lost/iter-002-") {
		t.Fatalf("repair: exit %d %s%s", res.code, res.stdout, res.stderr)
	}
	if res := runGate(t, r.dir, "", "status", "--format", "json"); res.code != 0 || !strings.Contains(res.stdout, `"status": "running"`) {
		t.Errorf("status after repair: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	r.write("progress.txt", "two\n")
	r.commit("iteration 3")
	if out := record(t, r, 0); out.Iteration != 2 {
		t.Errorf("record after repair recorded iteration %d, want 2 (the repaired loop is at iteration 1)", out.Iteration)
	}
	validateLoopFiles(t, r, id)
}

// TestLoopSeveralLoops: loops live side by side; with two active, --loop is
// needed, and status --all lists both.
func TestLoopSeveralLoops(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	a := startLoop(t, r, "--task", "first task", "--completion", "false", "--collect", "none")
	b := startLoop(t, r, "--task", "second task", "--completion", "false", "--collect", "none")
	r.write("progress.txt", "x\n")
	r.commit("iteration")
	if res := runGate(t, r.dir, "", "record"); res.code != 2 || !strings.Contains(res.stderr, "2 loops are active") {
		t.Errorf("record with two active loops: exit %d, stderr %s", res.code, res.stderr)
	}
	if res := runGate(t, r.dir, "", "record", "--loop", b); res.code != 0 {
		t.Errorf("record --loop %s: exit %d, stderr %s", b, res.code, res.stderr)
	}
	all := runGate(t, r.dir, "", "status", "--all")
	if !strings.Contains(all.stdout, a) || !strings.Contains(all.stdout, b) {
		t.Errorf("status --all:\n%s", all.stdout)
	}
	if tag := r.git("tag", "--list", "ralph/"+b+"/*"); !strings.Contains(tag, "iter-001") {
		t.Errorf("tags of %s: %q", b, tag)
	}
	validateLoopFiles(t, r, a)
	validateLoopFiles(t, r, b)
}

// TestLoopLegacyMigration: a legacy single-loop current-loop.json becomes a
// loop of the multi-loop layout on first use; the legacy file stays.
func TestLoopLegacyMigration(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	legacy := `{"task": "fix all tests", "completionPromise": "go test ./...", "maxIterations": 7, "currentIteration": 2, "status": "active"}`
	r.write(".aiwg/ralph/current-loop.json", legacy)
	r.git("rm", "-q", "--cached", "-r", "--ignore-unmatch", ".aiwg")
	res := runGate(t, r.dir, "", "status", "--format", "json")
	if res.code != 0 || !strings.Contains(res.stderr, "migrated") {
		t.Fatalf("status with a legacy loop: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	var st struct {
		LoopID        string `json:"loop_id"`
		Task          string `json:"task"`
		Iteration     int    `json:"iteration"`
		Status        string `json:"status"`
		Configuration struct {
			MaxIterations int `json:"max_iterations"`
		} `json:"configuration"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &st); err != nil {
		t.Fatal(err)
	}
	if st.Task != "fix all tests" || st.Iteration != 2 || st.Configuration.MaxIterations != 7 || st.Status != "running" {
		t.Errorf("migrated state = %+v", st)
	}
	if data, err := os.ReadFile(filepath.Join(r.dir, ".aiwg", "ralph", "current-loop.json")); err != nil || string(data) != legacy {
		t.Errorf("the legacy file was not kept as it was: %v", err)
	}
	validateLoopFiles(t, r, st.LoopID)
	// A second command does not migrate again.
	if res := runGate(t, r.dir, "", "status"); strings.Contains(res.stderr, "migrated") {
		t.Errorf("migrated twice: %s", res.stderr)
	}
}

// TestLoopSettingsFromFiles: aiwg.yml and .ralph-gate.yml's loop section set
// the thresholds at start, and a malformed aiwg.yml is one line with exit 2.
func TestLoopSettingsFromFiles(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	r.write("aiwg.yml", "agent_persistence:\n  best_output_selection:\n    quality_threshold: 60\nralph:\n  maxIterations: 4\n  improvementThreshold: 0.02\n")
	r.write(".ralph-gate.yml", "loop:\n  weights: {validation: 50, completeness: 50}\n")
	r.commit("settings")
	id := startLoop(t, r, "--task", "settings", "--completion", "false", "--collect", "none")
	st := readState(t, r, id)
	set := st["ralph_gate"].(map[string]any)["settings"].(map[string]any)
	if set["max_iterations"] != 4.0 || set["quality_threshold"] != 60.0 || set["improvement_stop"] != 2.0 {
		t.Errorf("settings = %v", set)
	}
	if w := set["weights"].(map[string]any); w["validation"] != 50.0 || w["correctness"] != 0.0 {
		t.Errorf("weights = %v", w)
	}
	r.write("aiwg.yml", "agent_persistence:\n  reinforcement:\n    default_level: LOUD\n")
	r.commit("bad aiwg.yml")
	res := runGate(t, r.dir, "", "start", "--task", "x", "--completion", "false", "--collect", "none")
	if res.code != 2 || !strings.Contains(res.stderr, "aiwg.yml") || !strings.Contains(res.stderr, "LOUD") {
		t.Errorf("start with a bad aiwg.yml: exit %d, stderr %s", res.code, res.stderr)
	}
}

// TestLoopHistoryCatchesATestEditedToPass: TestAdd fails at the baseline; the
// agent rewrites its expected value instead of fixing Add. Only the loop's
// history shows that the failing test now passes because of that edit alone.
func TestLoopHistoryCatchesATestEditedToPass(t *testing.T) {
	slow(t)
	t.Parallel()
	r := loopModule(t)
	startLoop(t, r, "--task", "fix Add", "--completion", "go test -run TestAdd ./...")
	r.write("calc_test.go", strings.Replace(loopCalcTest, "got != 5 {\n\t\tt.Errorf(\"Add(2, 3) = %d, want 5\"", "got != -1 {\n\t\tt.Errorf(\"Add(2, 3) = %d, want -1\"", 1))
	r.commit("iteration 1: TestAdd passes")
	out := record(t, r, 1)
	found := false
	for _, f := range out.Findings {
		if f.Rule == "history-test-edited-to-pass" && f.Type == "assertion_weakening" && f.Severity == "critical" && f.Test == "TestAdd" {
			found = true
		}
	}
	if !found || !out.Void || out.Decision != "blocked" {
		t.Fatalf("a test edited to pass: %+v", out)
	}
}

// TestLoopStuckEscalates: the same failure three iterations in a row is a
// stuck loop: the third is blocked for a human.
func TestLoopStuckEscalates(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	r.write(".ralph-gate.yml", "loop:\n  stop:\n    improvement: 0\n    plateau_window: 0\n")
	r.commit("config")
	id := startLoop(t, r, "--task", "stuck", "--completion", "echo 'FAIL: took 0.12s'; exit 1", "--collect", "none")
	for i := 1; i <= 3; i++ {
		r.write("progress.txt", strings.Repeat("x", i))
		r.commit("iteration")
		want := 0
		if i == 3 {
			want = 1
		}
		out := record(t, r, want)
		if i == 3 && !strings.Contains(out.Reason, "stuck loop") {
			t.Errorf("iteration 3 reason = %q", out.Reason)
		}
	}
	st := readState(t, r, id)
	recs := st["recovery_history"].([]any)
	last := recs[len(recs)-1].(map[string]any)
	if !strings.HasPrefix(last["trigger"].(string), "stuck_loop_detected") || last["outcome"] != "escalated" {
		t.Errorf("last recovery = %v", last)
	}
	res := runGate(t, r.dir, "", "approve", "--by", "reviewer", "--format", "json")
	var dec struct {
		Decision  string `json:"decision"`
		Iteration int    `json:"iteration"`
		Status    string `json:"status"`
	}
	if res.code != 0 || json.Unmarshal([]byte(res.stdout), &dec) != nil || dec.Decision != "approve" || dec.Iteration != 3 || dec.Status != "running" {
		t.Errorf("approve --format json: exit %d %s %s", res.code, res.stdout, res.stderr)
	}
	if st := readState(t, r, id); st["status"] != "running" {
		t.Errorf("status after approve = %v", st["status"])
	}
	validateLoopFiles(t, r, id)
}

// TestLoopKill9AtAnyMoment kills record after varying delays, wherever it
// is (analysis, tagging, journaling, saving): every time the state still
// loads and validates, and recording again either records the iteration or
// says it already did.
func TestLoopKill9AtAnyMoment(t *testing.T) {
	slow(t)
	t.Parallel()
	r := loopModule(t)
	r.write(".ralph-gate.yml", "loop:\n  stop: {improvement: 0, plateau_window: 0, quality: 0}\n  max_iterations: 100\n")
	r.commit("config")
	id := startLoop(t, r, "--task", "kill", "--completion", "echo run $$; exit 1", "--collect", "none")
	for i := 0; i < 12; i++ {
		r.write("progress.txt", fmt.Sprintf("%d\n", i))
		r.commit(fmt.Sprintf("iteration %d", i))
		cmd := exec.Command(binary, "record")
		cmd.Dir = r.dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(i*4) * time.Millisecond)
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		if res := runGate(t, r.dir, "", "status", "--format", "json"); res.code != 0 {
			t.Fatalf("kill %d: status exit %d: %s", i, res.code, res.stderr)
		}
		validateLoopFiles(t, r, id)
		res := runGate(t, r.dir, "", "record")
		t.Logf("kill %d: record again: exit %d: %s", i, res.code, strings.TrimSpace(res.stderr))
		approve := func() {
			if res := runGate(t, r.dir, "", "approve", "--by", "reviewer"); res.code != 0 {
				t.Fatalf("kill %d: approve: exit %d: %s", i, res.code, res.stderr)
			}
		}
		switch {
		case res.code == 0:
		case res.code == 2 && strings.Contains(res.stderr, "already recorded"):
		case res.code == 1 && strings.Contains(res.stderr+res.stdout, "stuck"):
			approve()
		case res.code == 1 && strings.Contains(res.stderr, "waiting for a human decision"):
			approve()
		default:
			t.Fatalf("kill %d (pid %d): record again: exit %d\n%s%s\nholders of the lock: %s", i, cmd.Process.Pid, res.code, res.stdout, res.stderr,
				lockHolders(filepath.Join(r.dir, ".aiwg", "ralph", "loops", id, ".lock")))
		}
	}
	st := readState(t, r, id)
	if n := len(st["iteration_history"].([]any)); n != 12 {
		var got []string
		for _, it := range st["iteration_history"].([]any) {
			m := it.(map[string]any)
			got = append(got, fmt.Sprintf("%v:%.7s:%v", m["iteration"], m["commit"], m["decision"]))
		}
		t.Errorf("%d iterations recorded after 12 commits, want 12: %v", n, got)
	}
}

// TestLoopHonestProgressIsNotStopped: a loop that fixes one of twelve
// failing tests per iteration gains a few points each time, under the
// improvement threshold: it is progress, and the loop goes on.
func TestLoopHonestProgressIsNotStopped(t *testing.T) {
	slow(t)
	t.Parallel()
	r := newRepo(t)
	r.write("go.mod", "module example.com/calc\n\ngo 1.26\n")
	var src, tests strings.Builder
	src.WriteString("package calc\n")
	tests.WriteString("package calc\n\nimport \"testing\"\n")
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&src, "\n// F%d is %d.\nfunc F%d() int { return 0 }\n", i, i, i)
		fmt.Fprintf(&tests, "\nfunc TestF%d(t *testing.T) {\n\tif got := F%d(); got != %d {\n\t\tt.Errorf(\"F%d() = %%d, want %d\", got)\n\t}\n}\n", i, i, i, i, i)
	}
	r.write("calc.go", src.String())
	r.write("calc_test.go", tests.String())
	r.commit("base")
	startLoop(t, r, "--task", "make every F return its number", "--completion", "go test ./...")
	code := src.String()
	for i := 1; i <= 5; i++ {
		code = strings.Replace(code, fmt.Sprintf("func F%d() int { return 0 }", i), fmt.Sprintf("func F%d() int { return %d }", i, i), 1)
		r.write("calc.go", code)
		r.commit(fmt.Sprintf("fix F%d", i))
		out := record(t, r, 0)
		if out.Decision != "continue" {
			t.Fatalf("iteration %d: decision %q (%s), want continue", i, out.Decision, out.Reason)
		}
	}
}

// TestLoopStoppedIsResumable: a loop that reaches its maximum without
// completion is paused with its reason, not failed; resume needs --extend,
// and the extended loop records on.
func TestLoopStoppedIsResumable(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	r.write(".ralph-gate.yml", "loop:\n  max_iterations: 2\n")
	r.commit("config")
	// The completion prints a different word each iteration, so that the
	// stuck-loop rule does not fire.
	words := []string{"", "alpha", "beta", "gamma"}
	id := startLoop(t, r, "--task", "fix", "--completion", "cat progress.txt 2>/dev/null; exit 1", "--collect", "none")
	for i := 1; i <= 2; i++ {
		r.write("progress.txt", words[i]+"\n")
		r.commit(fmt.Sprintf("iteration %d", i))
		want := 0
		if i == 2 {
			want = 4
		}
		record(t, r, want)
	}
	st := readState(t, r, id)
	if st["status"] != "paused" || !strings.Contains(fmt.Sprint(st["ralph_gate"]), "max iterations reached") {
		t.Errorf("after the maximum: status %v, ralph_gate %v", st["status"], st["ralph_gate"])
	}
	validateLoopFiles(t, r, id)
	r.write("progress.txt", words[3]+"\n")
	r.commit("iteration 3")
	if res := runGate(t, r.dir, "", "record"); res.code != 2 || !strings.Contains(res.stderr, "stopped at iteration 2") || !strings.Contains(res.stderr, "--extend") {
		t.Errorf("record on a stopped loop: exit %d, %s", res.code, res.stderr)
	}
	if res := runGate(t, r.dir, "", "resume"); res.code != 2 || !strings.Contains(res.stderr, "resume --extend N") {
		t.Errorf("resume at the maximum: exit %d, %s", res.code, res.stderr)
	}
	if res := runGate(t, r.dir, "", "resume", "--extend", "-1"); res.code != 2 {
		t.Errorf("resume --extend -1: exit %d", res.code)
	}
	if res := runGate(t, r.dir, "", "resume", "--extend", "2"); res.code != 0 {
		t.Fatalf("resume --extend 2: exit %d, %s", res.code, res.stderr)
	}
	if out := record(t, r, 0); out.Iteration != 3 {
		t.Errorf("after --extend 2 recorded iteration %d, want 3", out.Iteration)
	}
	st = readState(t, r, id)
	if st["status"] != "running" {
		t.Errorf("status after the extension: %v", st["status"])
	}
	validateLoopFiles(t, r, id)
}

// lockHolders lists the processes that have file open, with their process
// groups and command lines, for a failure message.
func lockHolders(file string) string {
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		fds, _ := filepath.Glob(p + "/fd/*")
		for _, fd := range fds {
			if target, err := os.Readlink(fd); err == nil && target == file {
				cmdline, _ := os.ReadFile(p + "/cmdline")
				stat, _ := os.ReadFile(p + "/stat")
				out = append(out, fmt.Sprintf("%s stat=%q cmd=%q", filepath.Base(p), string(stat), strings.ReplaceAll(string(cmdline), "\x00", " ")))
			}
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, "; ")
}

// TestLoopCompletionIgnoresTheWorkingTree: the completion command runs in a
// clean worktree of the recorded commit, so a marker the agent leaves
// uncommitted, untracked or ignored never makes it pass.
func TestLoopCompletionIgnoresTheWorkingTree(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	r.write(".gitignore", "DONE\n")
	r.commit("ignore DONE")
	id := startLoop(t, r, "--task", "finish", "--completion", "test -f DONE && test -f READY", "--collect", "none")
	r.write("progress.txt", "one\n")
	r.commit("iteration 1")
	// Forged: an ignored DONE and an untracked READY in the working tree.
	if err := os.WriteFile(filepath.Join(r.dir, "DONE"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.dir, "READY"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if out := record(t, r, 0); out.Verified {
		t.Errorf("completion passed on files the commit does not hold: %+v", out)
	}
	// Committed, READY counts; DONE stays ignored, so it still fails.
	r.git("add", "READY")
	r.commit("iteration 2")
	if out := record(t, r, 0); out.Verified {
		t.Errorf("completion passed on an ignored file: %+v", out)
	}
	r.git("add", "-f", "DONE")
	r.commit("iteration 3")
	if out := record(t, r, 4); !out.Verified {
		t.Errorf("completion failed with both files committed: %+v", out)
	}
	if st := readState(t, r, id); st["status"] != "completed" {
		t.Errorf("status %v, want completed", st["status"])
	}
}

// TestStartReportsUnknownAIWGKeys: aiwg.yml keys ralph-gate does not read
// are named in one note, never silently ignored; the ones it reads apply.
func TestStartReportsUnknownAIWGKeys(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	r.write("aiwg.yml", "ralph:\n  maxIterations: 4\n  maxIteration: 9\nagent_persistence:\n  recovery:\n    max_retries: 2\n    backof: 1\n")
	r.commit("aiwg")
	res := runGate(t, r.dir, "", "start", "--task", "t", "--completion", "false", "--collect", "none")
	if res.code != 0 {
		t.Fatalf("start: exit %d %s", res.code, res.stderr)
	}
	var notes []string
	for _, l := range strings.Split(res.stderr, "\n") {
		if strings.Contains(l, "does not read") {
			notes = append(notes, l)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "agent_persistence.recovery.backof, ralph.maxIteration") {
		t.Errorf("unknown aiwg.yml keys: %q", notes)
	}
	st := readState(t, r, strings.TrimSpace(res.stdout))
	if max := st["configuration"].(map[string]any)["max_iterations"]; max != float64(4) {
		t.Errorf("max_iterations %v, want aiwg.yml's 4", max)
	}
}

// TestLoopTagMadeAhead: a loop tag someone made ahead of its iteration is
// never moved; record exits 2 naming it.
func TestLoopTagMadeAhead(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	id := startLoop(t, r, "--task", "t", "--completion", "false", "--collect", "none")
	r.git("tag", "ralph/"+id+"/iter-001", "HEAD")
	r.write("progress.txt", "one\n")
	r.commit("iteration 1")
	res := runGate(t, r.dir, "", "record")
	if res.code != 2 || !strings.Contains(res.stderr, "ralph/"+id+"/iter-001") || !strings.Contains(res.stderr, "does not move it") {
		t.Errorf("record with a tag made ahead: exit %d %s", res.code, res.stderr)
	}
}

// TestLoopStateThroughALink: a .aiwg made a symbolic link (to a directory
// the agent prepared elsewhere) is refused, exit 2, never followed.
func TestLoopStateThroughALink(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(r.dir, ".aiwg")); err != nil {
		t.Fatal(err)
	}
	res := runGate(t, r.dir, "", "start", "--task", "t", "--completion", "false", "--collect", "none")
	if res.code != 2 || !strings.Contains(res.stderr, "symbolic link") {
		t.Errorf("start through a linked .aiwg: exit %d %s", res.code, res.stderr)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Errorf("loop state was written through the link: %v", entries)
	}
}
