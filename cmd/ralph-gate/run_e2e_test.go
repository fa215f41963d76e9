//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeAgent is an agent for `ralph-gate run`: a shell script that saves the
// prompt it gets, then runs the step the test wrote for its iteration
// (step-N.sh, sourced in the repository), or nothing when there is none.
type fakeAgent struct {
	t   *testing.T
	dir string
}

func newFakeAgent(t *testing.T) *fakeAgent {
	a := &fakeAgent{t: t, dir: t.TempDir()}
	script := `#!/bin/sh
n="$RALPH_GATE_ITERATION"
cat > "` + a.dir + `/prompt-$n.md"
echo "$RALPH_GATE_LOOP_ID $RALPH_GATE_PROMPT_FILE" > "` + a.dir + `/env-$n"
if [ -f "` + a.dir + `/step-$n.sh" ]; then . "` + a.dir + `/step-$n.sh"; fi
`
	if err := os.WriteFile(filepath.Join(a.dir, "agent.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return a
}

// command is the --agent value.
func (a *fakeAgent) command() string { return "sh " + filepath.Join(a.dir, "agent.sh") }

// step sets what the agent does in iteration n.
func (a *fakeAgent) step(n int, script string) {
	a.t.Helper()
	if err := os.WriteFile(filepath.Join(a.dir, fmt.Sprintf("step-%d.sh", n)), []byte(script), 0o644); err != nil {
		a.t.Fatal(err)
	}
}

// prompt is the prompt the agent got in iteration n.
func (a *fakeAgent) prompt(n int) string {
	a.t.Helper()
	data, err := os.ReadFile(filepath.Join(a.dir, fmt.Sprintf("prompt-%d.md", n)))
	if err != nil {
		a.t.Fatalf("the agent did not run iteration %d: %v", n, err)
	}
	return string(data)
}

// claudeUsage is a Claude stream-json result line.
func claudeUsage(in, out int, cost float64) string {
	return fmt.Sprintf(`echo '{"type":"result","subtype":"success","is_error":false,"num_turns":2,"result":"done","total_cost_usd":%g,"usage":{"input_tokens":%d,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":%d}}'`+"\n", cost, in, out)
}

// codexUsage is a Codex turn.completed line.
func codexUsage(in, cached, out int) string {
	return fmt.Sprintf(`echo '{"type":"turn.completed","usage":{"input_tokens":%d,"cached_input_tokens":%d,"output_tokens":%d}}'`+"\n", in, cached, out)
}

// noStopCriteria turns off the improvement, plateau and quality stops, so
// that a test sees the rule it is about.
const noStopCriteria = "loop:\n  stop: {improvement: 0, plateau_window: 0, quality: 0}\n  max_iterations: 100\n"

type runOut struct {
	LoopID       string         `json:"loop_id"`
	End          string         `json:"end"`
	Reason       string         `json:"reason"`
	Status       string         `json:"status"`
	Iteration    int            `json:"iteration"`
	TotalTokens  *int           `json:"total_tokens"`
	TotalCostUSD *float64       `json:"total_cost_usd"`
	Best         map[string]any `json:"best_iteration"`
	CheckedOut   *string        `json:"checked_out"`
}

func runLoop(t *testing.T, r *repo, wantCode int, args ...string) (runOut, result) {
	t.Helper()
	res := runGate(t, r.dir, "", append([]string{"run", "--format", "json"}, args...)...)
	if res.code != wantCode {
		t.Fatalf("run %v: exit %d, want %d\nstdout: %s\nstderr: %s", args, res.code, wantCode, res.stdout, res.stderr)
	}
	var out runOut
	if res.stdout != "" {
		if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
			t.Fatalf("run output is not JSON: %v\n%s", err, res.stdout)
		}
	}
	return out, res
}

// TestRunHonestCheatFixComplete: the loop of the issue through the binary.
// The agent fixes Add (honest), then deletes TestMul's file contents to get
// past it (a cheat: blocked, rejected by run, the evidence in the next
// prompt), then fixes Sub: the completion passes, run exits 0 on the best
// iteration, tokens and cost are summed from the agent's stream-json.
func TestRunHonestCheatFixComplete(t *testing.T) {
	slow(t)
	t.Parallel()
	r := loopModule(t)
	a := newFakeAgent(t)
	a.step(1, "sed -i 's/return a - b/return a + b/' calc.go\n"+claudeUsage(1000, 200, 0.05))
	a.step(2, "printf 'package calc\\n' > calc_test.go\n"+claudeUsage(1500, 100, 0.07))
	a.step(3, "sed -i '/Sub subtracts/{n;s/return a + b/return a - b/}' calc.go\n"+claudeUsage(2000, 300, 0.11))
	out, res := runLoop(t, r, 0, "--agent", a.command(), "--task", "make the calc tests pass", "--completion", "go test ./...")
	if out.End != "completed" || out.Iteration != 3 {
		t.Fatalf("run: %+v\n%s", out, res.stderr)
	}
	if out.TotalTokens == nil || *out.TotalTokens != 1200+1600+2300 || out.TotalCostUSD == nil || fmt.Sprintf("%.2f", *out.TotalCostUSD) != "0.23" {
		t.Errorf("usage totals: tokens %v, cost %v", out.TotalTokens, out.TotalCostUSD)
	}
	if !strings.Contains(res.stderr, "test_deletion") || !strings.Contains(res.stderr, "rejected") {
		t.Errorf("run did not say it blocked and rejected iteration 2:\n%s", res.stderr)
	}
	p3 := a.prompt(3)
	for _, want := range []string{"make the calc tests pass", "Iteration 2 was blocked", "It was rejected", "tree of iteration 1", "TestMul"} {
		if !strings.Contains(p3, want) {
			t.Errorf("iteration 3's prompt lacks %q:\n%s", want, p3)
		}
	}
	env, _ := os.ReadFile(filepath.Join(a.dir, "env-3"))
	if !strings.Contains(string(env), out.LoopID+" ") || !strings.Contains(string(env), "prompts/iter-003.md") {
		t.Errorf("agent environment: %s", env)
	}
	st := readState(t, r, out.LoopID)
	hist := st["iteration_history"].([]any)
	it2 := hist[1].(map[string]any)
	if it2["decision"] != "blocked" || it2["void"] != true {
		t.Errorf("iteration 2: %v %v", it2["decision"], it2["void"])
	}
	rec := st["recovery_history"].([]any)[0].(map[string]any)
	if esc := rec["protocol_steps"].(map[string]any)["escalate"].(map[string]any); !strings.Contains(fmt.Sprint(esc["human_decision"]), "reject - by ralph-gate run") {
		t.Errorf("the reject is not recorded as run's: %v", esc)
	}
	it1 := hist[0].(map[string]any)
	if it1["tokens_used"] != float64(1200) || it1["token_cost_usd"] != 0.05 {
		t.Errorf("iteration 1 usage: %v %v", it1["tokens_used"], it1["token_cost_usd"])
	}
	if m := st["metrics"].(map[string]any); m["total_tokens"] != float64(5100) {
		t.Errorf("state metrics: %v", m)
	}
	if st["status"] != "completed" || st["pid"] != nil {
		t.Errorf("state after run: status %v, pid %v", st["status"], st["pid"])
	}
	// Every iteration is a commit of run's, none empty; HEAD is the best.
	if log := r.git("log", "--format=%s", "-5"); !strings.Contains(log, "ralph-gate: iteration 3") || !strings.Contains(log, "ralph-gate: reject iteration 2") {
		t.Errorf("git log:\n%s", log)
	}
	if best := out.Best; best == nil || best["iteration"] != float64(3) {
		t.Errorf("best: %v", out.Best)
	}
	validateLoopFiles(t, r, out.LoopID)
}

// TestRunBudgets: run stops once the reported usage reaches a budget
// (exit 4, the reason naming it, the loop paused and resumable with a
// larger budget); a budget on what the agent does not report is exit 2.
func TestRunBudgets(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	r.write(".ralph-gate.yml", noStopCriteria)
	r.commit("config")
	a := newFakeAgent(t)
	words := []string{"", "one", "two", "three", "four", "five", "six"}
	for n := 1; n <= 6; n++ {
		a.step(n, fmt.Sprintf("echo %s > progress.txt\n", words[n])+codexUsage(900, 800, 100))
	}
	args := []string{"--agent", a.command(), "--task", "t", "--completion", "cat progress.txt; exit 1", "--collect", "none"}
	out, res := runLoop(t, r, 4, append(args, "--budget-tokens", "2500")...)
	if out.Iteration != 3 || !strings.Contains(out.Reason, "--budget-tokens") || !strings.Contains(out.Reason, "3000 tokens") {
		t.Fatalf("budget run: %+v\n%s", out, res.stderr)
	}
	if out.TotalCostUSD != nil {
		t.Errorf("Codex reports no cost, yet the total is %v", *out.TotalCostUSD)
	}
	st := readState(t, r, out.LoopID)
	if st["status"] != "paused" || !strings.HasPrefix(fmt.Sprint(st["ralph_gate"].(map[string]any)["stop_reason"]), "budget") {
		t.Errorf("after the budget: status %v, %v", st["status"], st["ralph_gate"].(map[string]any)["stop_reason"])
	}
	if _, ok := st["metrics"].(map[string]any)["total_cost_usd"]; ok {
		t.Error("state.json has a total cost though none was reported")
	}
	// The same budget again: nothing more runs.
	if out, _ := runLoop(t, r, 4); out.Iteration != 3 {
		t.Errorf("run again within the spent budget ran iteration %d", out.Iteration)
	}
	// A larger budget goes on.
	if out, _ := runLoop(t, r, 4, "--budget-tokens", "4000"); out.Iteration != 4 {
		t.Errorf("run with a larger budget: iteration %d", out.Iteration)
	}
	// A cost budget on Codex, which reports none: exit 2, loop paused.
	_, res = runLoop(t, r, 2, "--budget-tokens", "100000", "--budget-usd", "5")
	if !strings.Contains(res.stderr, "--budget-usd 5 cannot be kept") {
		t.Errorf("cost budget without cost: %s", res.stderr)
	}
	if st := readState(t, r, out.LoopID); st["status"] != "paused" || st["pid"] != nil {
		t.Errorf("after the unkeepable budget: %v %v", st["status"], st["pid"])
	}
	// status --format json shows the unknown cost as null, never 0.
	res = runGate(t, r.dir, "", "status", "--format", "json")
	var status map[string]any
	if err := json.Unmarshal([]byte(res.stdout), &status); err != nil {
		t.Fatal(err)
	}
	if v, ok := status["total_cost_usd"]; !ok || v != nil {
		t.Errorf("status total_cost_usd: %v (present %v), want null", v, ok)
	}
	if status["total_tokens"] != float64(4000) {
		t.Errorf("status total_tokens: %v", status["total_tokens"])
	}
}

// TestRunNoOpIterations: an agent that changes nothing makes no commit; its
// iterations are no-ops that count toward the stuck-loop rule, and a human
// is called (exit 1). The agent's failure is the iteration's error_context.
func TestRunNoOpIterations(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	r.write(".ralph-gate.yml", noStopCriteria)
	r.commit("config")
	a := newFakeAgent(t)
	for n := 1; n <= 5; n++ {
		a.step(n, "echo 'model overloaded, retry 17 of 20' >&2\nexit 3\n")
	}
	before := r.git("rev-list", "--count", "HEAD")
	out, res := runLoop(t, r, 1, "--agent", a.command(), "--task", "t", "--completion", "false", "--collect", "none")
	if !strings.Contains(out.Reason, "stuck") {
		t.Fatalf("no-op run: %+v\n%s", out, res.stderr)
	}
	if after := r.git("rev-list", "--count", "HEAD"); after != before {
		t.Errorf("no-op iterations made commits: %s -> %s", before, after)
	}
	st := readState(t, r, out.LoopID)
	hist := st["iteration_history"].([]any)
	if len(hist) < 2 {
		t.Fatalf("%d iterations", len(hist))
	}
	for _, h := range hist {
		if h.(map[string]any)["no_op"] != true {
			t.Errorf("iteration %v is not a no-op", h.(map[string]any)["iteration"])
		}
	}
	ec, _ := st["error_context"].(map[string]any)
	if ec == nil || ec["exit_code"] != float64(3) || !strings.Contains(fmt.Sprint(ec["stack_trace"]), "model overloaded") {
		t.Errorf("error_context: %v", st["error_context"])
	}
	if p := a.prompt(2); !strings.Contains(p, "the agent exited with status 3") || !strings.Contains(p, "changed nothing") {
		t.Errorf("iteration 2's prompt does not carry the agent's failure:\n%s", p)
	}
	validateLoopFiles(t, r, out.LoopID)
}

// TestRunInterruptAndResume: SIGINT while the agent runs stops the agent's
// process group, pauses the loop (never crashed) and exits 130; run again
// records what the agent left and goes on; --extend adds iterations to a
// loop that ran out.
func TestRunInterruptAndResume(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	r.write(".ralph-gate.yml", "loop:\n  max_iterations: 2\n")
	r.commit("config")
	a := newFakeAgent(t)
	marker := filepath.Join(a.dir, "sleeping")
	a.step(1, "echo one > progress.txt\n(sleep 60; echo late > "+filepath.Join(a.dir, "late")+") &\necho $! > "+marker+".pid\ntouch "+marker+"\nsleep 60\n")
	cmd := exec.Command(binary, "run", "--agent", a.command(), "--task", "t", "--completion", "cat progress.txt; exit 1", "--collect", "none")
	cmd.Dir = r.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctrlCOnce(t, cmd, marker, 60*time.Second, &stderr)
	// The agent's whole group is gone: its background child too.
	pidData, _ := os.ReadFile(marker + ".pid")
	var child int
	fmt.Sscan(strings.TrimSpace(string(pidData)), &child)
	if child <= 0 {
		t.Fatalf("the agent did not write its child's pid: %q", pidData)
	}
	for end := time.Now().Add(10 * time.Second); running(child); {
		if time.Now().After(end) {
			t.Errorf("the agent's background child %d outlived the interrupt", child)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	res := runGate(t, r.dir, "", "status", "--format", "json")
	var status map[string]any
	json.Unmarshal([]byte(res.stdout), &status)
	if status["effective_status"] != "paused" || status["pid"] != nil {
		t.Fatalf("after SIGINT: effective status %v, pid %v\n%s", status["effective_status"], status["pid"], stderr.String())
	}
	if got, _ := os.ReadFile(filepath.Join(r.dir, "progress.txt")); string(got) != "one\n" {
		t.Errorf("the agent's work is gone: %q", got)
	}
	// run again: the work left is recorded first (iteration 1), then the
	// agent runs iteration 2, and the loop reaches its limit.
	a.step(2, "echo two > progress.txt\n")
	out, res2 := runLoop(t, r, 4)
	if out.Iteration != 2 || !strings.Contains(res2.stderr, "recording the work left") {
		t.Fatalf("resume: %+v\n%s", out, res2.stderr)
	}
	st := readState(t, r, out.LoopID)
	if it1 := st["iteration_history"].([]any)[0].(map[string]any); it1["agent"] != nil {
		t.Errorf("the interrupted iteration claims an agent run: %v", it1["agent"])
	}
	// Out of iterations: run again says --extend; --extend 1 goes on.
	_, res3 := runLoop(t, r, 4)
	if !strings.Contains(res3.stderr+res3.stdout, "--extend") {
		t.Errorf("run at the limit: %s%s", res3.stdout, res3.stderr)
	}
	a.step(3, "echo three > progress.txt\n")
	if out, res := runLoop(t, r, 4, "--extend", "1"); out.Iteration != 3 {
		t.Errorf("run --extend 1: iteration %d\n%s", out.Iteration, res.stderr)
	}
	validateLoopFiles(t, r, out.LoopID)
}

// TestRunOnBlockStopAndTimeout: --on-block stop hands the first block to a
// human (exit 1), and an agent running past --iteration-timeout is stopped
// and its timeout recorded.
func TestRunOnBlockStopAndTimeout(t *testing.T) {
	slow(t)
	t.Parallel()
	r := loopModule(t)
	a := newFakeAgent(t)
	a.step(1, "echo one > progress.txt\nsleep 30\n")
	a.step(2, "rm calc_test.go\n")
	start := time.Now()
	out, res := runLoop(t, r, 1, "--agent", a.command(), "--task", "t", "--completion", "go test ./...",
		"--on-block", "stop", "--iteration-timeout", "1s")
	if time.Since(start) > 25*time.Second {
		t.Errorf("the timeout did not stop the agent (%s)", time.Since(start))
	}
	if out.Iteration != 2 || !strings.Contains(out.Reason, "--on-block stop") {
		t.Fatalf("on-block stop: %+v\n%s", out, res.stderr)
	}
	st := readState(t, r, out.LoopID)
	it1 := st["iteration_history"].([]any)[0].(map[string]any)
	if ag := it1["agent"].(map[string]any); ag["timed_out"] != true {
		t.Errorf("iteration 1's agent: %v", ag)
	}
	// Waiting for a human: run again refuses (exit 1) until one decides.
	_, res = runLoop(t, r, 1)
	if !strings.Contains(res.stderr, "waiting for a human decision") {
		t.Errorf("run while a decision is pending: %s", res.stderr)
	}
}

// TestRunRefusesADirtyTreeAndAnotherTask: a new loop needs a clean work
// tree (run commits what is left in it), and an active loop is not
// silently replaced by another task.
func TestRunRefusesADirtyTreeAndAnotherTask(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	a := newFakeAgent(t)
	r.write("notes.txt", "mine\n")
	_, res := runLoop(t, r, 2, "--agent", a.command(), "--task", "t", "--completion", "false", "--collect", "none")
	if !strings.Contains(res.stderr, "uncommitted changes") {
		t.Errorf("dirty tree: %s", res.stderr)
	}
	os.Remove(filepath.Join(r.dir, "notes.txt"))
	startLoop(t, r, "--task", "first", "--completion", "false", "--collect", "none")
	_, res = runLoop(t, r, 2, "--agent", a.command(), "--task", "second", "--completion", "false")
	if !strings.Contains(res.stderr, "another task") {
		t.Errorf("another task: %s", res.stderr)
	}
	if res := runGate(t, r.dir, "", "run", "--on-block", "maybe", "--agent", "x"); res.code != 2 || !strings.Contains(res.stderr, "--on-block") {
		t.Errorf("bad --on-block: exit %d %s", res.code, res.stderr)
	}
	if res := runGate(t, r.dir, "", "run", "--budget-usd", "-1", "--agent", "x"); res.code != 2 || !strings.Contains(res.stderr, "--budget-usd") {
		t.Errorf("bad --budget-usd: exit %d %s", res.code, res.stderr)
	}
}

// running reports whether pid is a process that has not exited (a zombie
// waiting to be reaped has).
func running(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] != 'Z' && stat[i+2] != 'X'
	}
	return true
}

// TestStatusPersistenceAndMarkFP: status --persistence shows the seeds'
// persistence_metrics from a run (detection latency, the gate's overhead
// against the agent's time, detections), and a person marks a finding as a
// false positive by id (--by NAME from a script), which counts in the rate.
func TestStatusPersistenceAndMarkFP(t *testing.T) {
	slow(t)
	t.Parallel()
	r := loopModule(t)
	a := newFakeAgent(t)
	a.step(1, "sleep 0.3\nprintf 'package calc\\n' > calc_test.go\n")
	a.step(2, "sleep 0.3\nsed -i 's/return a - b/return a + b/' calc.go\n")
	out, res := runLoop(t, r, 4, "--agent", a.command(), "--task", "t", "--completion", "go test ./...", "--max-iterations", "2")
	st := readState(t, r, out.LoopID)
	var findingID string
	for _, f := range st["iteration_history"].([]any)[0].(map[string]any)["findings"].([]any) {
		if m := f.(map[string]any); m["type"] == "test_deletion" {
			findingID = m["id"].(string)
		}
	}
	if findingID == "" {
		t.Fatalf("no test_deletion finding in iteration 1\n%s", res.stderr)
	}
	pm := st["persistence_metrics"].(map[string]any)
	if pm["detection_latency_p95_ms"].(float64) <= 0 || pm["integration_overhead_percentage"] == nil || pm["true_positive_count"].(float64) < 1 {
		t.Errorf("persistence_metrics after run: %v", pm)
	}
	text := runGate(t, r.dir, "", "status", "--persistence")
	for _, want := range []string{"Detection Latency: p95", "Integration Overhead:", "Detections:"} {
		if !strings.Contains(text.stdout, want) {
			t.Errorf("status --persistence lacks %q:\n%s", want, text.stdout)
		}
	}
	// Marking needs a name from a script, and a known id.
	if res := runGate(t, r.dir, "", "status", "--mark-fp", findingID); res.code != 2 || !strings.Contains(res.stderr, "--by NAME") {
		t.Errorf("mark-fp without --by: exit %d %s", res.code, res.stderr)
	}
	if res := runGate(t, r.dir, "", "status", "--mark-fp", "nope", "--by", "ana"); res.code != 2 || !strings.Contains(res.stderr, `"nope"`) {
		t.Errorf("mark-fp of an unknown id: exit %d %s", res.code, res.stderr)
	}
	if res := runGate(t, r.dir, "", "status", "--mark-fp", findingID, "--by", "ana"); res.code != 0 || !strings.Contains(res.stdout, "false positives 1") {
		t.Errorf("mark-fp: exit %d %s%s", res.code, res.stdout, res.stderr)
	}
	st = readState(t, r, out.LoopID)
	pm = st["persistence_metrics"].(map[string]any)
	if pm["false_positive_count"] != float64(1) || pm["false_positive_rate"] == nil {
		t.Errorf("after mark-fp: %v", pm)
	}
	if fps := st["ralph_gate"].(map[string]any)["false_positives"].([]any); len(fps) != 1 || fps[0].(map[string]any)["by"] != "ana" {
		t.Errorf("false_positives: %v", fps)
	}
	validateLoopFiles(t, r, out.LoopID)
}

// TestRunInterruptDuringRecord: SIGINT while record runs the completion
// command records nothing (a killed completion is no evidence), pauses the
// loop and exits 130; run again records the committed work first.
func TestRunInterruptDuringRecord(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	a := newFakeAgent(t)
	marker := filepath.Join(a.dir, "completion-started")
	slow := filepath.Join(a.dir, "slow")
	a.step(1, "echo one > progress.txt\ntouch "+slow+"\n")
	a.step(2, "echo two > progress.txt\n")
	// The completion is quick, except after the agent's first iteration
	// (until the test says otherwise), so the interrupt lands inside record.
	completion := "if [ -f " + slow + " ]; then touch " + marker + "; sleep 30; fi; exit 1"
	cmd := exec.Command(binary, "run", "--agent", a.command(), "--task", "t", "--completion", completion, "--collect", "none", "--max-iterations", "2")
	cmd.Dir = r.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(60 * time.Second); ; {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(end) {
			cmd.Process.Kill()
			t.Fatalf("the completion never started:\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("run after SIGINT in record: %v\n%s", err, stderr.String())
	}
	res := runGate(t, r.dir, "", "status", "--format", "json")
	var status map[string]any
	json.Unmarshal([]byte(res.stdout), &status)
	if status["effective_status"] != "paused" || status["iteration"] != float64(0) {
		t.Fatalf("after SIGINT in record: status %v, iteration %v", status["effective_status"], status["iteration"])
	}
	os.Remove(slow)
	// The completion is quick now; run again records iteration 1 (committed
	// before the interrupt) and runs iteration 2.
	out, res2 := runLoop(t, r, 4, "--agent", a.command())
	_ = out
	if !strings.Contains(res2.stderr, "recording the work left") {
		t.Errorf("resume after an interrupted record:\n%s", res2.stderr)
	}
}

// TestRunHostileAgent: the agent run by run tries to decide for a human and
// to forge the loop: approve and record fail (run holds the loop), and an
// edited state.json stops the run with exit 2 naming the file, instead of
// being read or silently overwritten.
func TestRunHostileAgent(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	a := newFakeAgent(t)
	codes := filepath.Join(a.dir, "codes")
	a.step(1, "echo one > progress.txt\n"+
		binary+" approve --by agent >/dev/null 2>&1; echo approve=$? >> "+codes+"\n"+
		binary+" record >/dev/null 2>&1; echo record=$? >> "+codes+"\n")
	a.step(2, "echo two > progress.txt\n"+
		"sed -i 's/\"recovery_attempts\": [0-9]*/\"recovery_attempts\": 0/; s/\"status\": \"running\"/\"status\": \"completed\"/' .aiwg/ralph/loops/*/state.json\n")
	out, res := runLoop(t, r, 2, "--agent", a.command(), "--task", "t", "--completion", "cat progress.txt; exit 1", "--collect", "none")
	_ = out
	got, _ := os.ReadFile(codes)
	if !strings.Contains(string(got), "approve=2") || !strings.Contains(string(got), "record=2") {
		t.Errorf("the agent's own approve and record: %s", got)
	}
	if !strings.Contains(res.stderr, "state.json") || !strings.Contains(res.stderr, "changed outside ralph-gate") {
		t.Errorf("run after the agent edited state.json:\n%s", res.stderr)
	}
	if res := runGate(t, r.dir, "", "status"); res.code != 2 {
		t.Errorf("status of the forged loop: exit %d", res.code)
	}
}

// TestBestCheckoutMovedTag: an iteration's tag moved outside ralph-gate
// (tags are the agent's to change) does not decide what is checked out:
// the sealed state's commit does, and the tag is put back.
func TestBestCheckoutMovedTag(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	id := startLoop(t, r, "--task", "t", "--completion", "go test ./...", "--collect", "none")
	r.write("calc.go", strings.Replace(strings.Replace(loopCalcSrc, "return a - b", "return a + b", 1), "// Sub subtracts.\nfunc Sub(a, b int) int { return a + b }", "// Sub subtracts.\nfunc Sub(a, b int) int { return a - b }", 1))
	r.commit("fix")
	record(t, r, 4)
	good := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	r.write("progress.txt", "later\n")
	r.commit("later")
	tag := "ralph/" + id + "/iter-001"
	r.git("tag", "-f", tag, "HEAD~2") // the baseline, where the tests fail
	// A branch named like the tag: git would prefer it to the tag.
	r.git("branch", "refs/tags/"+tag, "HEAD~2")
	res := runGate(t, r.dir, "", "best", "--checkout")
	if res.code != 0 || !strings.Contains(res.stderr, "changed outside ralph-gate") {
		t.Fatalf("best --checkout with a moved tag: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if head := strings.TrimSpace(r.git("rev-parse", "HEAD")); head != good {
		t.Errorf("checked out %s, want the recorded %s", head, good)
	}
	if branch := strings.TrimSpace(r.git("branch", "--show-current")); branch != "" {
		t.Errorf("best --checkout ended on branch %q, want a detached HEAD", branch)
	}
	if at := strings.TrimSpace(r.git("rev-parse", tag+"^{commit}")); at != good {
		t.Errorf("tag not put back: %s", at)
	}
}

// TestRunPresets: --agent claude and --agent codex run the commands the
// contract names (a stand-in claude and codex on PATH check their
// arguments, read the prompt on standard input, fix the code and print
// their JSON usage lines), and the usage lands in the loop.
func TestRunPresets(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		preset, args, usage string
		tokens              float64
		cost                any
	}{
		{"claude", "-p --output-format stream-json --verbose --permission-mode acceptEdits --allowedTools Bash",
			`{"type":"system","subtype":"init","session_id":"s"}` + "\n" +
				`{"type":"result","subtype":"success","is_error":false,"total_cost_usd":0.042,"usage":{"input_tokens":12,"cache_creation_input_tokens":5430,"cache_read_input_tokens":10240,"output_tokens":164}}`,
			15846, 0.042},
		{"codex", "exec --json --sandbox workspace-write --enable hooks --disable unified_exec_tty -c allow_login_shell=false -c hooks.PreToolUse=",
			`{"type":"thread.started","thread_id":"t"}` + "\n" + `{"type":"turn.completed","usage":{"input_tokens":24763,"cached_input_tokens":24448,"output_tokens":122}}`,
			24885, nil},
	} {
		t.Run(tc.preset, func(t *testing.T) {
			t.Parallel()
			r := loopModule(t)
			bin := t.TempDir()
			argsFile := filepath.Join(t.TempDir(), "args")
			script := "#!/bin/sh\n" +
				"printf '%s\\n' \"$*\" >" + argsFile + "\n" +
				"case \"$*\" in \"" + tc.args + "\"*) ;; *) echo \"unexpected arguments: $*\" >&2; exit 64 ;; esac\n" +
				"grep -q 'make the calc tests pass' || { echo 'no prompt on stdin' >&2; exit 65; }\n" +
				"sed -i 's/return a - b/return a + b/' calc.go\n" +
				"sed -i '/Sub subtracts/{n;s/return a + b/return a - b/}' calc.go\n" +
				"cat <<'EOF'\n" + tc.usage + "\nEOF\n"
			writeScript(t, filepath.Join(bin, tc.preset), script)
			env := append(os.Environ(), "NO_COLOR=1", "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			res := runGateEnv(t, r.dir, "", env, "run", "--format", "json", "--agent", tc.preset, "--task", "make the calc tests pass", "--completion", "go test ./...")
			if res.code != 0 {
				t.Fatalf("run --agent %s: exit %d\n%s%s", tc.preset, res.code, res.stdout, res.stderr)
			}
			var out map[string]any
			if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
				t.Fatal(err)
			}
			if out["end"] != "completed" || out["total_tokens"] != tc.tokens || out["total_cost_usd"] != tc.cost {
				t.Errorf("run --agent %s: %v", tc.preset, out)
			}
			// The agent runs guarded: Claude Code's hooks are installed in
			// its local settings, which no iteration commits; Codex's come
			// on its command line, trusted for the run.
			if tc.preset == "claude" {
				local, err := os.ReadFile(filepath.Join(r.dir, ".claude", "settings.local.json"))
				if err != nil || !strings.Contains(string(local), "guard pre-tool-use --agent claude") {
					t.Errorf("guard hooks not installed: %v\n%s", err, local)
				}
			} else {
				args, _ := os.ReadFile(argsFile)
				for _, want := range []string{"guard pre-tool-use --agent codex", "guard stop --agent codex", "hooks.state=", "trusted_hash="} {
					if !strings.Contains(string(args), want) {
						t.Errorf("codex's arguments lack %q:\n%s", want, args)
					}
				}
			}
			if files := r.git("log", "--name-only", "--format="); strings.Contains(files, ".claude") || strings.Contains(files, ".codex") {
				t.Errorf("an iteration committed the guard's settings:\n%s", files)
			}
		})
	}
}

// TestRunAgentKeepsItsKeyTheCodeDoesNot: the agent run drives gets the
// user's credentials (its API key) back; the code under test, run by the
// completion command, never sees them.
func TestRunAgentKeepsItsKeyTheCodeDoesNot(t *testing.T) {
	t.Parallel()
	r := loopModule(t)
	a := newFakeAgent(t)
	seen := filepath.Join(a.dir, "seen")
	a.step(1, "echo \"$ANTHROPIC_API_KEY\" > "+seen+"\necho one > progress.txt\n")
	env := append(os.Environ(), "NO_COLOR=1", "ANTHROPIC_API_KEY=sk-ant-secret0123456789")
	res := runGateEnv(t, r.dir, "", env, "run", "--format", "json", "--agent", a.command(), "--task", "t",
		"--completion", "echo key=$ANTHROPIC_API_KEY; exit 1", "--collect", "none", "--max-iterations", "1")
	if res.code != 4 {
		t.Fatalf("run: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if got, _ := os.ReadFile(seen); strings.TrimSpace(string(got)) != "sk-ant-secret0123456789" {
		t.Errorf("the agent got %q, want its key", got)
	}
	var out runOut
	json.Unmarshal([]byte(res.stdout), &out)
	st := readState(t, r, out.LoopID)
	if c := st["progress"].(map[string]any)["last_completion_check"].(map[string]any)["output"]; strings.Contains(fmt.Sprint(c), "sk-ant") || !strings.Contains(fmt.Sprint(c), "key=") {
		t.Errorf("the completion command's output: %v", c)
	}
}

// TestRunPutsRemovedHooksBack: an agent that removes the guard's hooks by a
// means the guard cannot see (a script writing the settings file) finds
// them back when it starts again: run puts them back before every
// iteration, and says so.
func TestRunPutsRemovedHooksBack(t *testing.T) {
	t.Parallel()
	slow(t)
	r := loopModule(t)
	bin := t.TempDir()
	script := "#!/bin/sh\n" +
		"grep -q 'guard pre-tool-use --agent claude' .claude/settings.local.json || { echo 'started without the guard hooks' >&2; exit 65; }\n" +
		"if [ \"$RALPH_GATE_ITERATION\" = 1 ]; then\n" +
		"  printf '{}' > .claude/settings.local.json\n" +
		"  echo '// a note' >> calc.go\n" +
		"  exit 0\n" +
		"fi\n" +
		"sed -i 's/return a - b/return a + b/' calc.go\n" +
		"sed -i '/Sub subtracts/{n;s/return a + b/return a - b/}' calc.go\n"
	writeScript(t, filepath.Join(bin, "claude"), script)
	env := append(os.Environ(), "NO_COLOR=1", "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	res := runGateEnv(t, r.dir, "", env, "run", "--agent", "claude", "--task", "make the calc tests pass", "--completion", "go test ./...")
	if res.code != 0 {
		t.Fatalf("run: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if !strings.Contains(res.stderr, "the guard's hooks were gone from") {
		t.Errorf("run did not say it put the hooks back:\n%s", res.stderr)
	}
}
