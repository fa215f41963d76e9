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
