//go:build unix

package main

import (
	"strings"
	"testing"
)

// TestRunWitness: two loops driven by run on the same task, whose agents
// make the same fix in iteration 1. One adds a test that fails on the code
// the loop started from, the other one that passes there too. The second
// iteration 1 scores lower, its state records the witness, and its next
// prompt says that the new test passes without the change.
func TestRunWitness(t *testing.T) {
	slow(t)
	t.Parallel()
	lang := witnessLangs()[0] // go
	scores := map[string]float64{}
	for _, v := range []struct{ name, test string }{{"pinning", lang.pinning}, {"trivial", lang.trivial}} {
		t.Run(v.name, func(t *testing.T) {
			r := goModule(t)
			r.write(lang.code, lang.buggy)
			r.commit("clamp")
			a := newFakeAgent(t)
			a.step(1, "printf '%s' '"+lang.fix+"' > "+lang.code+"\nprintf '%s' '"+v.test+"' > "+lang.testFile+"\n")
			a.step(2, "touch DONE\n")
			out, res := runLoop(t, r, 0, "--agent", a.command(), "--task", "fix Clamp's upper bound", "--completion", "go test ./... && test -f DONE")
			if out.End != "completed" || out.Iteration != 2 {
				t.Fatalf("run: %+v\n%s", out, res.stderr)
			}
			st := readState(t, r, out.LoopID)
			it1 := st["iteration_history"].([]any)[0].(map[string]any)
			scores[v.name] = it1["quality_score"].(float64)
			w, _ := it1["witness"].(map[string]any)
			if w == nil {
				t.Fatalf("iteration 1 records no witness: %v", it1)
			}
			tests, _ := w["tests"].([]any)
			want := map[string]string{"pinning": "witnessed", "trivial": "not_witnessing"}[v.name]
			if len(tests) != 1 || tests[0].(map[string]any)["witness"] != want {
				t.Errorf("iteration 1's witness %v, want one test %s", w, want)
			}
			p2 := a.prompt(2)
			if says := strings.Contains(p2, "Your new test passes without your change"); says != (v.name == "trivial") {
				t.Errorf("%s: iteration 2's prompt (says it: %v):\n%s", v.name, says, p2)
			}
			if v.name == "trivial" && !strings.Contains(p2, "TestClampInside") {
				t.Errorf("iteration 2's prompt does not name the test:\n%s", p2)
			}
		})
	}
	if !(scores["trivial"] < scores["pinning"]) {
		t.Errorf("quality of iteration 1: %v with a test that does not witness the fix, %v with one that does: want lower", scores["trivial"], scores["pinning"])
	}
}

// TestRunMutation: run mutates by default. A loop whose agent's fix is
// tested far from its new boundary records the surviving mutant in its
// state, scores it as a finding, and the next prompt names the line and
// the change no test noticed; --mutation=false mutates nothing.
func TestRunMutation(t *testing.T) {
	slow(t)
	t.Parallel()
	l := mutationLangs()[0] // go
	for _, off := range []bool{false, true} {
		r := goModule(t)
		r.write(l.code, l.base)
		r.commit("discount")
		a := newFakeAgent(t)
		a.step(1, "printf '%s' '"+l.fix+"' > "+l.code+"\nprintf '%s' '"+l.weak+"' > "+l.testFile+"\n")
		a.step(2, "touch DONE\n")
		args := []string{"--agent", a.command(), "--task", "take 10 off totals of 100 or more", "--completion", "go test ./... && test -f DONE"}
		if off {
			args = append(args, "--mutation=false")
		}
		out, res := runLoop(t, r, 0, args...)
		if out.End != "completed" || out.Iteration != 2 {
			t.Fatalf("run (mutation off: %v): %+v\n%s", off, out, res.stderr)
		}
		it1 := readState(t, r, out.LoopID)["iteration_history"].([]any)[0].(map[string]any)
		m, _ := it1["mutation"].(map[string]any)
		p2 := a.prompt(2)
		if off {
			if m != nil || strings.Contains(p2, "without any test noticing") {
				t.Errorf("--mutation=false: iteration 1 records %v; prompt:\n%s", m, p2)
			}
			continue
		}
		if m == nil || m["survived"] != float64(1) {
			t.Fatalf("iteration 1 records mutation %v, want one survivor", m)
		}
		found := false
		for _, f := range it1["findings"].([]any) {
			found = found || f.(map[string]any)["rule"] == "mutant-survived"
		}
		if !found {
			t.Errorf("iteration 1's findings lack mutant-survived: %v", it1["findings"])
		}
		if !strings.Contains(p2, "can be broken without any test noticing") || !strings.Contains(p2, "`"+l.boundary+"` changed to `if total > 100 {`") {
			t.Errorf("iteration 2's prompt does not name the survivor:\n%s", p2)
		}
	}
}
