package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// witnessReport is the witness part of compare's JSON report.
type witnessReport struct {
	Witness *struct {
		Ran    bool   `json:"ran"`
		Reason string `json:"reason"`
		Tests  []struct {
			Test, File, Witness, Detail string
		} `json:"tests"`
	} `json:"witness"`
}

func parseWitness(t *testing.T, out string) witnessReport {
	t.Helper()
	var w witnessReport
	if err := json.Unmarshal([]byte(out), &w); err != nil || w.Witness == nil {
		t.Fatalf("no witness in the report (%v):\n%s", err, out)
	}
	return w
}

// outcomes maps each witnessed test's name (the part after the last
// separator) to its outcome.
func (w witnessReport) outcomes() map[string]string {
	out := map[string]string{}
	for _, t := range w.Witness.Tests {
		name := t.Test
		if i := strings.LastIndexAny(name, ".>:/"); i >= 0 {
			name = strings.TrimSpace(name[i+1:])
		}
		out[name] = t.Witness
	}
	return out
}

// witnessLang is one language's project for the witness: BASE's code has a
// bug its tests do not see; fix is the fixed code, pinning a test file
// that fails on the bug, trivial one that passes on both.
type witnessLang struct {
	name        string
	project     func(t *testing.T) *repo
	code        string // the production file
	buggy, fix  string // its content at BASE and at HEAD
	testFile    string // the file the new tests go to
	pinning     string // a test that fails on the buggy code
	trivial     string // a test that passes on both
	pinName     string
	trivialName string
}

func witnessLangs() []witnessLang {
	return []witnessLang{
		{
			name:     "go",
			project:  func(t *testing.T) *repo { return goModule(t) },
			code:     "clamp.go",
			buggy:    "package calc\n\n// Clamp limits x to [lo, hi].\nfunc Clamp(x, lo, hi int) int {\n\tif x < lo {\n\t\treturn lo\n\t}\n\tif x > hi+1 {\n\t\treturn hi\n\t}\n\treturn x\n}\n",
			fix:      "package calc\n\n// Clamp limits x to [lo, hi].\nfunc Clamp(x, lo, hi int) int {\n\tif x < lo {\n\t\treturn lo\n\t}\n\tif x > hi {\n\t\treturn hi\n\t}\n\treturn x\n}\n",
			testFile: "clamp_test.go",
			pinning:  "package calc\n\nimport \"testing\"\n\nfunc TestClampJustAbove(t *testing.T) {\n\tif got := Clamp(11, 0, 10); got != 10 {\n\t\tt.Fatalf(\"Clamp(11, 0, 10) = %d, want 10\", got)\n\t}\n}\n",
			trivial:  "package calc\n\nimport \"testing\"\n\nfunc TestClampInside(t *testing.T) {\n\tif got := Clamp(5, 0, 10); got != 5 {\n\t\tt.Fatalf(\"Clamp(5, 0, 10) = %d\", got)\n\t}\n}\n",
			pinName:  "TestClampJustAbove", trivialName: "TestClampInside",
		},
		{
			name:     "python",
			project:  pytestProject,
			code:     "clamp.py",
			buggy:    "def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n    if x > hi + 1:\n        return hi\n    return x\n",
			fix:      "def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n    if x > hi:\n        return hi\n    return x\n",
			testFile: "tests/test_clamp.py",
			pinning:  "from clamp import clamp\n\n\ndef test_clamp_just_above():\n    assert clamp(11, 0, 10) == 10\n",
			trivial:  "from clamp import clamp\n\n\ndef test_clamp_inside():\n    assert clamp(5, 0, 10) == 5\n",
			pinName:  "test_clamp_just_above", trivialName: "test_clamp_inside",
		},
		{
			name:     "typescript",
			project:  vitestProject,
			code:     "src/clamp.ts",
			buggy:    "export function clamp(x: number, lo: number, hi: number): number {\n  if (x < lo) return lo\n  if (x > hi + 1) return hi\n  return x\n}\n",
			fix:      "export function clamp(x: number, lo: number, hi: number): number {\n  if (x < lo) return lo\n  if (x > hi) return hi\n  return x\n}\n",
			testFile: "test/clamp.test.ts",
			pinning:  "import { clamp } from '../src/clamp'\n\ndescribe('clamp', () => {\n  test('just above', () => {\n    expect(clamp(11, 0, 10)).toBe(10)\n  })\n})\n",
			trivial:  "import { clamp } from '../src/clamp'\n\ndescribe('clamp', () => {\n  test('inside', () => {\n    expect(clamp(5, 0, 10)).toBe(5)\n  })\n})\n",
			pinName:  "just above", trivialName: "inside",
		},
	}
}

// TestCompareWitness: in Go, Python and TypeScript projects, a fix whose new
// test fails on BASE's code is witnessed and gets no finding; a fix whose
// only new test passes on BASE's code too gets unwitnessed-change (medium:
// exit 0), high when compare.witness_severity says so (exit 1); the report
// names each test's outcome in JSON, text and markdown.
func TestCompareWitness(t *testing.T) {
	t.Parallel()
	for _, l := range witnessLangs() {
		t.Run(l.name, func(t *testing.T) {
			t.Parallel()
			if l.name == "python" {
				slow(t)
			}
			r := l.project(t)
			r.write(l.code, l.buggy)
			base := r.commit("clamp")

			// The honest fix: a test that fails without it.
			r.write(l.code, l.fix)
			r.write(l.testFile, l.pinning)
			honest := r.commit("fix clamp's upper bound, with a test")
			res := runGate(t, r.dir, "", "compare", "--format", "json", base, honest)
			rep := parseCompare(t, res.stdout)
			if res.code != 0 || rep.has("unverified", "unwitnessed-change", "") {
				t.Fatalf("honest fix: exit %d, findings %+v\n%s", res.code, rep.Findings, res.stderr)
			}
			if got := parseWitness(t, res.stdout).outcomes()[l.pinName]; got != "witnessed" {
				t.Errorf("honest fix: %s is %q, want witnessed: %s", l.pinName, got, res.stdout)
			}

			// The same fix with a test that never touches the changed branch.
			r.git("reset", "-q", "--hard", base)
			r.write(l.code, l.fix)
			r.write(l.testFile, l.trivial)
			weak := r.commit("fix clamp, with a test")
			res = runGate(t, r.dir, "", "compare", "--format", "json", base, weak)
			rep = parseCompare(t, res.stdout)
			f, ok := rep.findingOf("unverified", "unwitnessed-change")
			if res.code != 0 || !ok || f.Severity != "medium" || f.File != l.code || !strings.Contains(f.Message, l.trivialName) {
				t.Fatalf("unwitnessed fix: exit %d (want 0), finding %+v (want medium unwitnessed-change on %s naming %s)\n%s", res.code, f, l.code, l.trivialName, res.stderr)
			}
			w := parseWitness(t, res.stdout)
			if !w.Witness.Ran || w.outcomes()[l.trivialName] != "not_witnessing" {
				t.Errorf("unwitnessed fix: witness %+v, want %s not_witnessing", *w.Witness, l.trivialName)
			}
			text := runGate(t, r.dir, "", "compare", base, weak)
			if !strings.Contains(text.stdout, "Witness: 0 of 1 new or edited test fail") || !strings.Contains(text.stdout, "not_witnessing") {
				t.Errorf("text report lacks the witness:\n%s", text.stdout)
			}
			md := runGate(t, r.dir, "", "compare", "--format", "markdown", base, weak)
			if !strings.Contains(md.stdout, "### Witness") || !strings.Contains(md.stdout, "| not_witnessing |") {
				t.Errorf("markdown report lacks the witness table:\n%s", md.stdout)
			}

			sarif := runGate(t, r.dir, "", "compare", "--format", "sarif", base, weak)
			if !strings.Contains(sarif.stdout, `"witness": "not_witnessing"`) && !strings.Contains(sarif.stdout, `"witness":"not_witnessing"`) {
				t.Errorf("sarif run properties lack the witness:\n%s", sarif.stdout)
			}

			// A loop's configuration makes it block.
			r.git("reset", "-q", "--hard", base)
			cfg := ""
			if _, err := os.Stat(filepath.Join(r.dir, ".ralph-gate.yml")); err == nil {
				cfg = r.read(".ralph-gate.yml")
			}
			r.write(".ralph-gate.yml", cfg+"compare:\n  witness_severity: high\n")
			strict := r.commit("configure the witness")
			r.write(l.code, l.fix)
			r.write(l.testFile, l.trivial)
			r.commit("fix clamp, with a test")
			res = runGate(t, r.dir, "", "compare", "--format", "json", strict, "HEAD")
			rep = parseCompare(t, res.stdout)
			if f, ok := rep.findingOf("unverified", "unwitnessed-change"); res.code != 1 || !ok || f.Severity != "high" {
				t.Errorf("witness_severity high: exit %d, finding %+v; want exit 1 and a high finding\n%s", res.code, f, res.stderr)
			}
			res = runGate(t, r.dir, "", "compare", "--format", "json", "--no-witness", strict, "HEAD")
			if rep := parseCompare(t, res.stdout); res.code != 0 || rep.has("unverified", "unwitnessed-change", "") ||
				!strings.Contains(parseWitness(t, res.stdout).Witness.Reason, "--no-witness") {
				t.Errorf("--no-witness: exit %d, findings %+v\n%s", res.code, rep.Findings, res.stdout)
			}
		})
	}
}

// TestCompareWitnessGo: a new function's test does not build on BASE's code
// (witnessed); a comment-only change to the code asks for no witness; a new
// test that fails at HEAD is broken, not a witness.
func TestCompareWitnessGo(t *testing.T) {
	t.Parallel()
	r := goModule(t)
	base := r.git("rev-parse", "HEAD")
	r.write("calc.go", calcSrc+"\n// Neg negates.\nfunc Neg(x int) int { return -x }\n")
	r.write("neg_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestNeg(t *testing.T) {\n\tif Neg(2) != -2 {\n\t\tt.Fatal(\"Neg(2)\")\n\t}\n}\n")
	head := r.commit("neg")
	res := runGate(t, r.dir, "", "compare", "--format", "json", base, head)
	w := parseWitness(t, res.stdout)
	if res.code != 0 || w.outcomes()["TestNeg"] != "witnessed" || !strings.Contains(w.Witness.Tests[0].Detail, "undefined: Neg") {
		t.Errorf("new function: exit %d, witness %+v\n%s", res.code, w.Witness, res.stderr)
	}

	r2 := goModule(t)
	base2 := r2.git("rev-parse", "HEAD")
	r2.write("calc.go", strings.Replace(calcSrc, "// Add adds.", "// Add adds a and b.", 1))
	r2.write("more_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestAddZero(t *testing.T) {\n\tif Add(0, 0) != 0 {\n\t\tt.Fatal(\"Add(0, 0)\")\n\t}\n}\n")
	r2.commit("docs and a test")
	res = runGate(t, r2.dir, "", "compare", "--format", "json", base2, "HEAD")
	if rep := parseCompare(t, res.stdout); res.code != 0 || rep.has("unverified", "unwitnessed-change", "") ||
		parseWitness(t, res.stdout).Witness.Reason != "the range changes no production code" {
		t.Errorf("comment-only change: exit %d, findings %+v\n%s", res.code, rep.Findings, res.stdout)
	}

	r3 := goModule(t)
	base3 := r3.git("rev-parse", "HEAD")
	r3.write("calc.go", calcSrc+"\n// Neg negates.\nfunc Neg(x int) int { return x }\n")
	r3.write("neg_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestNeg(t *testing.T) {\n\tif Neg(2) != -2 {\n\t\tt.Fatal(\"Neg(2) is not -2\")\n\t}\n}\n")
	r3.commit("neg, wrong")
	res = runGate(t, r3.dir, "", "compare", "--format", "json", base3, "HEAD")
	w = parseWitness(t, res.stdout)
	if rep := parseCompare(t, res.stdout); rep.has("unverified", "unwitnessed-change", "") || w.outcomes()["TestNeg"] != "broken" {
		t.Errorf("failing new test: findings %+v, witness %+v", rep.Findings, w.Witness)
	}

	// A hostile test that fails wherever the checkout is not the fix's
	// commit, or is not clean, would pass for a witness if the run showed
	// BASE's commit or the laid-back code as a change: it shows neither.
	for name, check := range map[string]string{
		"log":    `out, _ := exec.Command("git", "log", "-1", "--format=%s").Output(); if !strings.Contains(string(out), "fix") { t.Fatalf("not the fix: %q", out) }`,
		"status": `out, err := exec.Command("git", "status", "--porcelain").Output(); if err != nil || strings.TrimSpace(string(out)) != "" { t.Fatalf("dirty: %q %v", out, err) }`,
	} {
		r4 := goModule(t)
		r4.write("clamp.go", witnessLangs()[0].buggy)
		base4 := r4.commit("clamp")
		r4.write("clamp.go", witnessLangs()[0].fix)
		r4.write("clamp_test.go", "package calc\n\nimport (\n\t\"os/exec\"\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc TestClampInside(t *testing.T) {\n\t"+check+"\n\tif Clamp(5, 0, 10) != 5 {\n\t\tt.Fatal(\"Clamp\")\n\t}\n}\n")
		r4.commit("fix clamp")
		res = runGate(t, r4.dir, "", "compare", "--format", "json", base4, "HEAD")
		w = parseWitness(t, res.stdout)
		if rep := parseCompare(t, res.stdout); !rep.has("unverified", "unwitnessed-change", "") || w.outcomes()["TestClampInside"] != "not_witnessing" {
			t.Errorf("a test that asks git (%s) passes for a witness: findings %+v, witness %+v", name, rep.Findings, w.Witness)
		}
	}
}
