package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

type findingKey struct{ Type, Rule, Test string }

func keysOf(t *testing.T, data []byte) []findingKey {
	t.Helper()
	var rep struct {
		Findings []struct {
			Type, Rule, Test string
			Net              bool
		} `json:"findings"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	var out []findingKey
	for _, f := range rep.Findings {
		if f.Net {
			out = append(out, findingKey{f.Type, f.Rule, f.Test})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Type+out[i].Rule+out[i].Test < out[j].Type+out[j].Rule+out[j].Test })
	return out
}

// TestSameFindingsEverywhere: compare, the action, the pre-push hook and the
// loop's record measure one range through one pipeline and report the same
// findings: here a test that goes pass->fail and a deleted test.
func TestSameFindingsEverywhere(t *testing.T) {
	slow(t)
	t.Parallel()
	r := compareModule(t)
	r.write(".ralph-gate.yml", "hook:\n  collect: true\n")
	base := r.commit("measure on push")
	startLoop(t, r, "--task", "speed up calc", "--completion", "go test ./...")
	r.write("calc.go", strings.Replace(r.read("calc.go"), "return a * b", "return a + b", 1))
	r.write("calc_test.go", calcTestNoSub)
	head := r.commit("agent: simplify")

	cmp := runGate(t, r.dir, "", "compare", "--format", "json", base, head)
	if cmp.code != 1 {
		t.Fatalf("compare: exit %d\n%s", cmp.code, cmp.stderr)
	}
	want := keysOf(t, []byte(cmp.stdout))
	types := map[string]bool{}
	for _, k := range want {
		types[k.Type] = true
	}
	if !types["test_regression"] || !types["test_deletion"] {
		t.Fatalf("compare findings %+v, want a test_regression and a test_deletion", want)
	}

	// The action, collecting as compare does.
	run := newRunner(t, r.dir)
	run.env["INPUT_COLLECT"] = "auto"
	run.run("pull_request", prPayload(base, head))
	data, err := os.ReadFile(filepath.Join(run.dir, "ralph-gate-report.json"))
	if err != nil {
		t.Fatalf("action report: %v\n%s%s", err, run.stdout, run.stderr)
	}
	if got := keysOf(t, data); !equalKeys(got, want) {
		t.Errorf("action findings differ from compare's:\n got %+v\nwant %+v", got, want)
	}

	// The pre-push hook, with collect on in BASE's configuration, names them.
	hook := runGate(t, r.dir, "refs/heads/main "+head+" refs/heads/main "+base+"\n", "hook", "pre-push", "origin", "file:///nowhere")
	if hook.code != 1 {
		t.Errorf("hook: exit %d\n%s", hook.code, hook.stderr)
	}
	for _, k := range want {
		if !strings.Contains(hook.stderr, k.Type) || k.Test != "" && !strings.Contains(hook.stderr, leafName(k.Test)) {
			t.Errorf("hook output lacks %+v:\n%s", k, hook.stderr)
		}
	}

	// The loop's record of the same range as one iteration.
	res := runGate(t, r.dir, "", "record", "--format", "json")
	if res.code != 1 && res.code != 0 {
		t.Fatalf("record: exit %d\n%s", res.code, res.stderr)
	}
	if got := keysOf(t, []byte(res.stdout)); !containsKeys(got, want) {
		t.Errorf("record findings lack compare's:\n got %+v\nwant %+v", got, want)
	}
}

func leafName(id string) string {
	if i := strings.LastIndex(id, "."); i >= 0 {
		return id[i+1:]
	}
	return id
}

func equalKeys(a, b []findingKey) bool {
	return containsKeys(a, b) && containsKeys(b, a)
}

func containsKeys(have, want []findingKey) bool {
	set := map[findingKey]bool{}
	for _, k := range have {
		set[k] = true
	}
	for _, k := range want {
		if !set[k] {
			return false
		}
	}
	return true
}
