package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// monoModule is a module of four packages: b imports a; a's own test does
// not pin A's value, so only b's catches a change to it; e's test reads a
// file of a's testdata through "..", so it reaches out of its directory; c
// stands alone.
func monoModule(t *testing.T) *repo {
	r := newRepo(t)
	r.write("go.mod", "module example.com/mono\n\ngo 1.26\n")
	r.write("a/a.go", "package a\n\n// A is the answer b builds on.\nfunc A() int { return 1 }\n")
	r.write("a/a_test.go", "package a\n\nimport \"testing\"\n\nfunc TestARuns(t *testing.T) { _ = A() }\n")
	r.write("a/testdata/limit.txt", "3\n")
	r.write("b/b.go", "package b\n\nimport \"example.com/mono/a\"\n\n// B is one more than A.\nfunc B() int { return a.A() + 1 }\n")
	r.write("b/b_test.go", "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {\n\tif got := B(); got != 2 {\n\t\tt.Fatalf(\"B() = %d, want 2\", got)\n\t}\n}\n")
	r.write("c/c.go", "package c\n\n// C is three.\nfunc C() int { return 3 }\n")
	r.write("c/c_test.go", "package c\n\nimport \"testing\"\n\nfunc TestC(t *testing.T) {\n\tif C() != 3 {\n\t\tt.Fatal(\"C\")\n\t}\n}\n")
	r.write("e/e.go", "package e\n")
	r.write("e/e_test.go", `package e

import (
	"os"
	"strings"
	"testing"
)

func TestLimit(t *testing.T) {
	b, err := os.ReadFile("../a/testdata/limit.txt")
	if err != nil {
		t.Fatal(err)
	}
	if s := strings.TrimSpace(string(b)); s != "3" {
		t.Fatalf("limit %q, want 3", s)
	}
}
`)
	r.write("README.md", "mono\n")
	r.commit("base")
	return r
}

// affectedReport is compare's JSON with the test ids measured at each end.
type affectedReport struct {
	compareReport
	IDs struct {
		Base, Head struct {
			TestIDs struct{ Passed, Failed, Skipped []string } `json:"test_ids"`
		}
	}
}

func compareAffected(t *testing.T, r *repo, args ...string) (affectedReport, result) {
	t.Helper()
	res := runGate(t, r.dir, "", append([]string{"compare", "--format", "json"}, args...)...)
	var rep affectedReport
	rep.compareReport = parseCompare(t, res.stdout)
	var raw struct {
		Metrics json.RawMessage `json:"metrics"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw.Metrics, &rep.IDs); err != nil {
		t.Fatal(err)
	}
	return rep, res
}

func (a affectedReport) note(sub string) string {
	for _, n := range a.Notes {
		if strings.Contains(n.Message, sub) {
			return n.Message
		}
	}
	return ""
}

func TestAffectedOnlyRunsWhatTheRangeAffects(t *testing.T) {
	t.Parallel()
	r := monoModule(t)
	base := r.git("rev-parse", "HEAD")
	r.write("c/c.go", strings.Replace(r.read("c/c.go"), "// C is three.", "// C is three, always.", 1))
	r.commit("agent: document C")

	rep, res := compareAffected(t, r, "--no-cache", base, "HEAD")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	// c changed; e reaches out of its directory, so it always runs.
	want := []string{"example.com/mono/c.TestC", "example.com/mono/e.TestLimit"}
	for side, ids := range map[string][]string{"BASE": rep.IDs.Base.TestIDs.Passed, "HEAD": rep.IDs.Head.TestIDs.Passed} {
		if !reflect.DeepEqual(ids, want) {
			t.Errorf("%s ran %v, want %v", side, ids, want)
		}
	}
	if n := rep.note("affected-only"); !strings.Contains(n, "2 of 4 packages") || !strings.Contains(n, "2 unaffected packages not measured") {
		t.Errorf("note: %q (notes %+v)", n, rep.Notes)
	}

	all, res := compareAffected(t, r, "--no-cache", "--all-packages", base, "HEAD")
	if res.code != 0 || len(all.IDs.Head.TestIDs.Passed) != 4 || len(all.IDs.Base.TestIDs.Passed) != 4 {
		t.Errorf("--all-packages: exit %d, BASE %v HEAD %v", res.code, all.IDs.Base.TestIDs.Passed, all.IDs.Head.TestIDs.Passed)
	}
	if n := all.note("affected-only"); n != "" {
		t.Errorf("--all-packages noted %q", n)
	}
}

// TestAffectedOnlyCatches: the changes an agent could hope affected-only
// measuring would not run the tests of. Each one's broken test runs, and
// blocks.
func TestAffectedOnlyCatches(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		setup  func(r *repo) // committed as BASE
		change func(r *repo)
		want   []string
	}{{
		// A package whose own tests do not notice; the package that
		// imports it fails.
		name:   "a dependent",
		change: func(r *repo) { r.write("a/a.go", strings.Replace(r.read("a/a.go"), "return 1", "return 2", 1)) },
		want:   []string{"example.com/mono/b.TestB", "B() = 3, want 2"},
	}, {
		// A data file of a's testdata that e's test reads through "..".
		name:   "a read out of the package",
		change: func(r *repo) { r.write("a/testdata/limit.txt", "4\n") },
		want:   []string{"example.com/mono/e.TestLimit"},
	}, {
		// c's test reads its data through a committed symbolic link to a
		// shared directory.
		name: "a read through a link",
		setup: func(r *repo) {
			r.write("shared/want.txt", "3\n")
			r.write("c/c_test.go", "package c\n\nimport (\n\t\"os\"\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc TestC(t *testing.T) {\n\tb, err := os.ReadFile(\"data/want.txt\")\n\tif err != nil || strings.TrimSpace(string(b)) != \"3\" {\n\t\tt.Fatalf(\"want.txt %q %v\", b, err)\n\t}\n}\n")
			if err := os.Symlink("../shared", filepath.Join(r.dir, "c", "data")); err != nil {
				r.t.Fatal(err)
			}
		},
		change: func(r *repo) { r.write("shared/want.txt", "4\n") },
		want:   []string{"example.com/mono/c.TestC"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := monoModule(t)
			if tc.setup != nil {
				tc.setup(r)
				r.commit("setup")
			}
			base := r.git("rev-parse", "HEAD")
			tc.change(r)
			r.commit("agent: " + tc.name)
			compareBlocks(t, r, base, "test_regression", "test-now-fails", tc.want...)
		})
	}
}

func TestAffectedOnlyCarriesFromTheCache(t *testing.T) {
	t.Parallel()
	r := monoModule(t)
	base := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "-b", "docs")
	r.write("c/c.go", strings.Replace(r.read("c/c.go"), "// C is three.", "// C is three, always.", 1))
	r.commit("document C")
	// BASE's run of c and e is kept per package.
	if _, res := compareAffected(t, r, base, "HEAD"); res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	r.git("checkout", "-q", "-b", "tune", base)
	r.write("b/b.go", strings.Replace(r.read("b/b.go"), "// B is one more than A.", "// B is one more than A, always.", 1))
	r.commit("document B")
	rep, res := compareAffected(t, r, base, "HEAD")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if n := rep.note("affected-only"); !strings.Contains(n, "2 of 4 packages") || !strings.Contains(n, "1 unaffected package carried from the cache") || !strings.Contains(n, "1 unaffected package not measured") {
		t.Errorf("note: %q", n)
	}
	// b and e ran; c came from the cache at both ends; a was never run at
	// this BASE, so it is not measured.
	want := []string{"example.com/mono/b.TestB", "example.com/mono/c.TestC", "example.com/mono/e.TestLimit"}
	if !reflect.DeepEqual(rep.IDs.Head.TestIDs.Passed, want) || !reflect.DeepEqual(rep.IDs.Base.TestIDs.Passed, want) {
		t.Errorf("BASE %v HEAD %v, want %v at both", rep.IDs.Base.TestIDs.Passed, rep.IDs.Head.TestIDs.Passed, want)
	}
}

func TestAffectedOnlySharedFileMeasuresEverything(t *testing.T) {
	t.Parallel()
	r := monoModule(t)
	base := r.git("rev-parse", "HEAD")
	r.write("go.mod", "module example.com/mono\n\ngo 1.26\n\n// toolchain notes\n")
	r.commit("agent: touch go.mod")
	rep, res := compareAffected(t, r, "--no-cache", base, "HEAD")
	if res.code != 0 || len(rep.IDs.Head.TestIDs.Passed) != 4 {
		t.Fatalf("exit %d, HEAD ran %v\n%s", res.code, rep.IDs.Head.TestIDs.Passed, res.stderr)
	}
	if n := rep.note("every package measured"); !strings.Contains(n, "go.mod changed") {
		t.Errorf("notes %+v", rep.Notes)
	}
}

// TestLoopRecordsAffectedOnly: start measures every package; each record
// runs at HEAD only the packages the iteration affects and takes the
// others' results from the previous measurement, so every iteration is
// scored on all the tests, and a regression in a dependent still blocks.
func TestLoopRecordsAffectedOnly(t *testing.T) {
	slow(t)
	t.Parallel()
	r := monoModule(t)
	id := startLoop(t, r, "--task", "document c", "--completion", "false")
	r.write("c/c.go", strings.Replace(r.read("c/c.go"), "// C is three.", "// C is three, always.", 1))
	r.commit("iteration 1: document C")

	res := runGate(t, r.dir, "", "record", "--format", "json")
	if res.code != 0 {
		t.Fatalf("record: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	var out struct {
		QualityScore float64  `json:"quality_score"`
		Notes        []string `json:"notes"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range out.Notes {
		found = found || strings.Contains(n, "2 of 4 packages are affected by the range and run at HEAD; the other 2 are carried from BASE's measurement")
	}
	if !found {
		t.Errorf("record notes %q", out.Notes)
	}
	st := readState(t, r, id)
	hist := st["iteration_history"].([]any)
	last := hist[len(hist)-1].(map[string]any)
	b, _ := json.Marshal(last)
	if !strings.Contains(string(b), `"test_count":4`) && !strings.Contains(string(b), `"tests_total":4`) {
		t.Errorf("iteration 1 is not scored on all 4 tests: %s", b)
	}

	// Iteration 2 breaks b through a: a runs, and so does b, whose test
	// now fails (a high finding: the loop goes on, and the iteration
	// scores lower).
	r.write("a/a.go", strings.Replace(r.read("a/a.go"), "return 1", "return 2", 1))
	r.commit("iteration 2: tune A")
	out2 := record(t, r, 0)
	if !out2.has("test_regression", "high", "example.com/mono/b.TestB") {
		t.Errorf("iteration 2 findings %+v", out2.Findings)
	}
	if out2.QualityScore >= out.QualityScore {
		t.Errorf("iteration 2 scored %v, iteration 1 %v", out2.QualityScore, out.QualityScore)
	}
}

// TestAffectedOnlyWorkspaces: vitest in a workspace monorepo runs the changed
// workspace and the ones that depend on it, at both ends.
func TestAffectedOnlyWorkspaces(t *testing.T) {
	t.Parallel()
	r := vitestProject(t)
	r.write("package.json", `{"name": "mono", "private": true, "workspaces": ["packages/*"]}`)
	r.write("packages/a/package.json", `{"name": "a"}`)
	r.write("packages/a/a.js", "export const a = () => 1\n")
	r.write("packages/a/a.test.js", "import { a } from './a.js'\n\ntest('a', () => { expect(a()).toBe(1) })\n")
	r.write("packages/b/package.json", `{"name": "b"}`)
	r.write("packages/b/b.test.js", "import { a } from '../a/a.js'\n\ntest('b', () => { expect(a() + 1).toBe(2) })\n")
	r.write("packages/c/package.json", `{"name": "c"}`)
	r.write("packages/c/c.test.js", "test('c', () => { expect(3).toBe(3) })\n")
	r.remove("test/calc.test.js")
	r.remove("src/calc.js")
	base := r.commit("workspaces")

	r.write("packages/c/c.test.js", "test('c', () => { expect(3).toBe(3) })\ntest('c2', () => { expect(4).toBe(4) })\n")
	r.commit("c: one more test")
	rep, res := compareAffected(t, r, "--no-cache", base, "HEAD")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	// b imports a's file through "../": it may read anything, so it runs
	// too; a does not.
	if n := rep.note("affected-only"); !strings.Contains(n, "2 paths") || !strings.Contains(n, "(b, c)") {
		t.Errorf("note %q (notes %+v)", n, rep.Notes)
	}
	if len(rep.IDs.Base.TestIDs.Passed) != 2 || len(rep.IDs.Head.TestIDs.Passed) != 3 {
		t.Errorf("BASE ran %v, HEAD %v: want b's and c's tests only", rep.IDs.Base.TestIDs.Passed, rep.IDs.Head.TestIDs.Passed)
	}

	// a breaks b: both run, and b's failure blocks.
	r.write("packages/a/a.js", "export const a = () => 2\n")
	r.write("packages/a/a.test.js", "import { a } from './a.js'\n\ntest('a', () => { expect(a()).toBe(2) })\n")
	r.commit("agent: a returns 2")
	compareBlocks(t, r, base, "test_regression", "test-now-fails", "b")
}

// TestAffectedOnlyPytest: a change to test files alone runs those files; a
// change to the code under test runs everything.
func TestAffectedOnlyPytest(t *testing.T) {
	slow(t)
	t.Parallel()
	r := pytestProject(t)
	r.write("tests/test_other.py", "def test_other():\n    assert True\n")
	base := r.commit("another test file")
	r.write("tests/test_calc.py", r.read("tests/test_calc.py")+"\n\ndef test_add_zero():\n    assert add(0, 0) == 0\n")
	r.commit("one more test")
	rep, res := compareAffected(t, r, "--no-cache", base, "HEAD")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	for _, id := range append(rep.IDs.Base.TestIDs.Passed, rep.IDs.Head.TestIDs.Passed...) {
		if strings.Contains(id, "test_other") {
			t.Errorf("the unchanged test file ran: %s", id)
		}
	}
	if len(rep.IDs.Head.TestIDs.Passed) != len(rep.IDs.Base.TestIDs.Passed)+1 {
		t.Errorf("BASE ran %v, HEAD %v", rep.IDs.Base.TestIDs.Passed, rep.IDs.Head.TestIDs.Passed)
	}
	r.write("calc.py", r.read("calc.py")+"\n")
	r.commit("touch the code")
	rep, res = compareAffected(t, r, "--no-cache", base, "HEAD")
	if n := rep.note("every test measured"); res.code != 0 || !strings.Contains(n, "calc.py changed") {
		t.Errorf("exit %d, notes %+v", res.code, rep.Notes)
	}
}

// TestAllPackagesFillsTheCache: a run of --all-packages keeps BASE's results
// per package, so a later affected-only range from that BASE measures every
// package: the affected ones run, the others are carried.
func TestAllPackagesFillsTheCache(t *testing.T) {
	t.Parallel()
	r := monoModule(t)
	base := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "-b", "first")
	r.write("README.md", "mono, documented\n")
	r.commit("docs")
	if _, res := compareAffected(t, r, "--all-packages", base, "HEAD"); res.code != 0 {
		t.Fatalf("--all-packages: exit %d\n%s", res.code, res.stderr)
	}
	r.git("checkout", "-q", "-b", "second", base)
	r.write("c/c.go", strings.Replace(r.read("c/c.go"), "// C is three.", "// C is three, always.", 1))
	r.commit("document C")
	rep, res := compareAffected(t, r, base, "HEAD")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if n := rep.note("affected-only"); !strings.Contains(n, "2 of 4 packages") || !strings.Contains(n, "2 unaffected packages carried from the cache") || strings.Contains(n, "not measured") {
		t.Errorf("note %q", n)
	}
	if len(rep.IDs.Base.TestIDs.Passed) != 4 || len(rep.IDs.Head.TestIDs.Passed) != 4 {
		t.Errorf("BASE %v HEAD %v: want all 4 tests at both ends", rep.IDs.Base.TestIDs.Passed, rep.IDs.Head.TestIDs.Passed)
	}
}

// TestAffectedOnlyFirstTests: a range that gives an untested package its
// first test measures that package alone, with no test at BASE: a measured
// empty scope, not missing data.
func TestAffectedOnlyFirstTests(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("go.mod", "module example.com/first\n\ngo 1.26\n")
	r.write("p/p.go", "package p\n\n// P is two.\nfunc P() int { return 2 }\n")
	r.write("p/p_test.go", "package p\n\nimport \"testing\"\n\nfunc TestP(t *testing.T) {\n\tif P() != 2 {\n\t\tt.Fatal(\"P\")\n\t}\n}\n")
	r.write("q/q.go", "package q\n\n// Q is three.\nfunc Q() int { return 3 }\n")
	base := r.commit("base")
	r.write("q/q_test.go", "package q\n\nimport \"testing\"\n\nfunc TestQ(t *testing.T) {\n\tif Q() != 3 {\n\t\tt.Fatal(\"Q\")\n\t}\n}\n")
	r.commit("q's first test")
	rep, res := compareAffected(t, r, "--no-cache", base, "HEAD")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if len(rep.IDs.Base.TestIDs.Passed) != 0 || !reflect.DeepEqual(rep.IDs.Head.TestIDs.Passed, []string{"example.com/first/q.TestQ"}) {
		t.Errorf("BASE %v HEAD %v", rep.IDs.Base.TestIDs.Passed, rep.IDs.Head.TestIDs.Passed)
	}
	// A collector that reports nothing at all is still missing data.
	r.write(".ralph-gate.yml", "collectors:\n  - name: go test\n    argv: [go, test, -json, ./..., -run, NONE]\n    tests: true\n    reports: [{format: gotest, stdout: true}]\n")
	base2 := r.commit("a collector that runs no test")
	r.write("q/q.go", "package q\n\n// Q is three, always.\nfunc Q() int { return 3 }\n")
	r.commit("document Q")
	if res := runGate(t, r.dir, "", "compare", "--no-cache", base2, "HEAD"); res.code != 2 || !strings.Contains(res.stderr, "no test") {
		t.Errorf("a run of no test: exit %d\n%s", res.code, res.stderr)
	}
}
