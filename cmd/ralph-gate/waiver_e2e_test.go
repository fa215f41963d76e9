package main

import (
	"encoding/json"
	"strings"
	"testing"
)

const waiverTests = "package calc\n\nimport \"testing\"\n\n" +
	"func TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"1+2\")\n\t}\n}\n\n" +
	"func TestAddZero(t *testing.T) {\n\tif Add(0, 0) != 0 {\n\t\tt.Fatal(\"0+0\")\n\t}\n}\n\n" +
	"func TestAddNeg(t *testing.T) {\n\tif Add(-1, -1) != -2 {\n\t\tt.Fatal(\"-1-1\")\n\t}\n}\n"

// withoutTests drops the named test functions from waiverTests.
func withoutTests(names ...string) string {
	parts := strings.Split(waiverTests, "\n\nfunc ")
	out := parts[0]
	for _, p := range parts[1:] {
		keep := true
		for _, n := range names {
			if strings.HasPrefix(p, n+"(") {
				keep = false
			}
		}
		if keep {
			out += "\n\nfunc " + p
		}
	}
	return out
}

type waivedFinding struct {
	ID         string `json:"id"`
	Test       string `json:"test"`
	Rule       string `json:"rule"`
	Net        bool   `json:"net"`
	Suppressed string `json:"suppressed"`
	Waived     bool   `json:"waived"`
}

func waiverReport(t *testing.T, out string) (verdict string, fs []waivedFinding) {
	t.Helper()
	var r struct {
		Verdict  string          `json:"verdict"`
		Findings []waivedFinding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return r.Verdict, r.Findings
}

// TestWaivers: a waiver in BASE's configuration lets exactly its finding
// through, and every output says so; one the change adds does not count; an
// expired one lets nothing through and is itself a finding.
func TestWaivers(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("go.mod", "module example.com/calc\n\ngo 1.22\n")
	r.write("calc.go", "package calc\n\nfunc Add(a, b int) int { return a + b }\n")
	r.write("calc_test.go", waiverTests)
	root := r.commit("calc")

	// The id a report gives the deletion of TestAddZero.
	r.git("checkout", "-q", "-b", "probe")
	r.write("calc_test.go", withoutTests("TestAddZero"))
	probe := r.commit("probe")
	res := runGate(t, r.dir, "", "analyze", "--format", "json", root, probe)
	_, fs := waiverReport(t, res.stdout)
	id := ""
	for _, f := range fs {
		if f.Test == "TestAddZero" {
			id = f.ID
		}
	}
	if id == "" {
		t.Fatalf("no finding for TestAddZero:\n%s", res.stdout)
	}
	r.git("checkout", "-q", "main")

	// waive prints the entry; BASE gets it.
	w := runGate(t, r.dir, "", "waive", id, "--reason", "TestAddZero duplicated TestAdd", "--by", "alice", "--days", "30")
	if w.code != 0 || !strings.Contains(w.stdout, "id: "+id) {
		t.Fatalf("waive = %d\n%s%s", w.code, w.stdout, w.stderr)
	}
	r.write(".ralph-gate.yml", w.stdout)
	base := r.commit("waive the deletion of TestAddZero")

	// Only the waived deletion: passes, and says it is waived.
	r.git("checkout", "-q", "-b", "one", base)
	r.write("calc_test.go", withoutTests("TestAddZero"))
	one := r.commit("drop TestAddZero")
	res = runGate(t, r.dir, "", "analyze", "--format", "json", base, one)
	verdict, fs := waiverReport(t, res.stdout)
	if res.code != 0 || verdict == "block" || len(fs) != 1 || !fs[0].Waived || !strings.HasPrefix(fs[0].Suppressed, "waived by alice until ") {
		t.Fatalf("the waived deletion alone: exit %d, verdict %s, findings %+v\n%s", res.code, verdict, fs, res.stderr)
	}
	for _, format := range []string{"text", "markdown", "sarif", "codeclimate", "rdjson", "github"} {
		out := runGate(t, r.dir, "", "analyze", "--format", format, base, one)
		if out.code != 0 || !strings.Contains(out.stdout, "waived by alice") {
			t.Errorf("--format %s: exit %d, and it does not say the finding is waived:\n%s", format, out.code, out.stdout)
		}
	}

	// The waived deletion and another: the other blocks.
	r.git("checkout", "-q", "-b", "two", base)
	r.write("calc_test.go", withoutTests("TestAddZero", "TestAddNeg"))
	two := r.commit("drop two tests")
	res = runGate(t, r.dir, "", "analyze", "--format", "json", base, two)
	verdict, fs = waiverReport(t, res.stdout)
	waived, blocking := 0, 0
	for _, f := range fs {
		switch {
		case f.Waived && f.Test == "TestAddZero":
			waived++
		case !f.Waived && f.Suppressed == "" && f.Test == "TestAddNeg":
			blocking++
		}
	}
	if res.code != 1 || verdict != "block" || waived != 1 || blocking != 1 {
		t.Fatalf("two deletions, one waived: exit %d, verdict %s, findings %+v", res.code, verdict, fs)
	}

	// A waiver the change adds never counts.
	r.git("checkout", "-q", "-b", "self", root)
	r.write(".ralph-gate.yml", w.stdout)
	r.write("calc_test.go", withoutTests("TestAddZero"))
	self := r.commit("drop TestAddZero and waive it")
	res = runGate(t, r.dir, "", "analyze", "--format", "json", root, self)
	verdict, fs = waiverReport(t, res.stdout)
	for _, f := range fs {
		if f.Waived {
			t.Errorf("a waiver added by the change counted: %+v", f)
		}
	}
	if res.code != 1 || verdict != "block" {
		t.Fatalf("a self-waived deletion: exit %d, verdict %s", res.code, verdict)
	}

	// An expired waiver: the deletion blocks, and the waiver is a finding.
	r.git("checkout", "-q", "-b", "expired", root)
	r.write(".ralph-gate.yml", "waivers:\n  - id: "+id+"\n    reason: reviewed\n    by: alice\n    expires: 2020-01-31\n")
	oldBase := r.commit("an old waiver")
	r.write("calc_test.go", withoutTests("TestAddZero"))
	late := r.commit("drop TestAddZero")
	res = runGate(t, r.dir, "", "analyze", "--format", "json", oldBase, late)
	verdict, fs = waiverReport(t, res.stdout)
	expired := false
	for _, f := range fs {
		if f.Waived {
			t.Errorf("an expired waiver counted: %+v", f)
		}
		expired = expired || f.Rule == "waiver-expired" && f.Net
	}
	if res.code != 1 || verdict != "block" || !expired {
		t.Fatalf("an expired waiver: exit %d, verdict %s, findings %+v", res.code, verdict, fs)
	}

	// A malformed waiver at BASE is a configuration error naming the file.
	r.git("checkout", "-q", "-b", "bad", root)
	r.write(".ralph-gate.yml", "waivers:\n  - id: "+id+"\n    reason: reviewed\n    expires: 2099-01-31\n")
	badBase := r.commit("a waiver without by")
	res = runGate(t, r.dir, "", "analyze", badBase, badBase)
	if res.code != 2 || !strings.Contains(res.stderr, ".ralph-gate.yml") || !strings.Contains(res.stderr, "by") {
		t.Fatalf("a malformed waiver: exit %d\n%s", res.code, res.stderr)
	}
}

// TestLoopExpiredWaiver: record reports an expired waiver of the loop's
// configuration as compare does.
func TestLoopExpiredWaiver(t *testing.T) {
	t.Parallel()
	r := goModule(t)
	r.write(".ralph-gate.yml", "waivers:\n  - type: test_deletion\n    path: calc_test.go\n    reason: reviewed\n    by: alice\n    expires: 2020-01-31\n")
	r.commit("an old waiver")
	startLoop(t, r, "--task", "t", "--completion", "false", "--collect", "none")
	r.write("calc.go", r.read("calc.go")+"\n// More docs.\n")
	r.commit("iteration 1")
	out := record(t, r, 0)
	found := false
	for _, f := range out.Findings {
		found = found || f.Rule == "waiver-expired" && f.File == ".ralph-gate.yml"
	}
	if !found {
		t.Errorf("record findings %+v", out.Findings)
	}
}
