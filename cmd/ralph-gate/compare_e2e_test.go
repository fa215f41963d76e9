package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

type compareReport struct {
	Verdict  string `json:"verdict"`
	Findings []struct {
		Type, Severity, Rule, Test, File, Evidence, Message string
		Net                                                 bool
	} `json:"findings"`
	Metrics struct {
		Base, Head struct {
			TestCount *int     `json:"test_count"`
			Coverage  *float64 `json:"coverage_percentage"`
			Tests     *struct {
				Total, Passed, Failed, Skipped int
			} `json:"tests"`
			FileCount   *int `json:"file_count"`
			LinesOfCode *int `json:"lines_of_code"`
		}
	} `json:"metrics"`
	Notes []struct{ File, Message string } `json:"notes"`
}

// compareExits runs compare base..HEAD in r as JSON, fails the test unless
// it exits 1 when block is set and 0 otherwise, and returns the report and
// the raw output.
func compareExits(t *testing.T, r *repo, base string, block bool) (compareReport, string) {
	t.Helper()
	res := runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD")
	want := 0
	if block {
		want = 1
	}
	if res.code != want {
		t.Fatalf("exit %d, want %d\n%s\n%s", res.code, want, res.stdout, res.stderr)
	}
	return parseCompare(t, res.stdout), res.stdout
}

func parseCompare(t *testing.T, s string) compareReport {
	t.Helper()
	var r compareReport
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
	return r
}

func (r compareReport) has(typ, rule, test string) bool {
	for _, f := range r.Findings {
		if (typ == "" || f.Type == typ) && (rule == "" || f.Rule == rule) && (test == "" || strings.Contains(f.Test, test)) && f.Net {
			return true
		}
	}
	return false
}

func (r compareReport) cached() int {
	n := 0
	for _, note := range r.Notes {
		if strings.Contains(note.Message, "metrics from the cache") {
			n++
		}
	}
	return n
}

const mulTest = `package calc

import "testing"

func TestMul(t *testing.T) {
	if got := Mul(2, 3); got != 6 {
		t.Errorf("Mul(2, 3) = %d, want 6", got)
	}
}
`

func compareModule(t *testing.T) *repo {
	r := goModule(t)
	r.write("calc.go", calcSrc+"\n// Mul multiplies.\nfunc Mul(a, b int) int {\n\tif a == 0 || b == 0 {\n\t\treturn 0\n\t}\n\treturn a * b\n}\n")
	r.write("mul_test.go", mulTest)
	r.commit("mul")
	return r
}

func TestCompareDeletedTestFile(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	r.remove("mul_test.go")
	r.commit("agent: drop the slow tests")
	status := r.git("status", "--porcelain")
	head := r.git("rev-parse", "HEAD")

	res := runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD")
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	rep := parseCompare(t, res.stdout)
	if !rep.has("test_deletion", "", "TestMul") || !rep.has("coverage_regression", "coverage-dropped", "") {
		t.Errorf("want test_deletion of TestMul and coverage_regression; got %+v", rep.Findings)
	}
	b, h := rep.Metrics.Base, rep.Metrics.Head
	if b.TestCount == nil || h.TestCount == nil || *b.TestCount != 3 || *h.TestCount != 2 {
		t.Errorf("test_count base %v head %v, want 3 and 2", b.TestCount, h.TestCount)
	}
	if b.Coverage == nil || h.Coverage == nil || !(*h.Coverage < *b.Coverage) {
		t.Errorf("coverage base %v head %v: want lower at HEAD", b.Coverage, h.Coverage)
	}
	if b.FileCount == nil || h.FileCount == nil || *b.FileCount != 3 || *h.FileCount != 2 {
		t.Errorf("file_count base %v head %v", deref(b.FileCount), deref(h.FileCount))
	}
	if got := r.git("status", "--porcelain"); got != status || r.git("rev-parse", "HEAD") != head {
		t.Errorf("compare touched the checkout")
	}
	if wt := r.git("worktree", "list"); strings.Count(wt, "\n") != 0 {
		t.Errorf("worktrees left behind:\n%s", wt)
	}
	if rep.cached() != 0 {
		t.Errorf("first run served from the cache: %+v", rep.Notes)
	}

	// The second run is served from the cache: no test runs.
	again := parseCompare(t, runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD").stdout)
	if again.cached() != 2 || len(again.Findings) != len(rep.Findings) {
		t.Errorf("second run: %d cached ends, %d findings (first %d)", again.cached(), len(again.Findings), len(rep.Findings))
	}
	// --no-cache measures again.
	fresh := parseCompare(t, runGate(t, r.dir, "", "compare", "--no-cache", "--format", "json", base, "HEAD").stdout)
	if fresh.cached() != 0 {
		t.Errorf("--no-cache used the cache")
	}
}

func TestCompareTamperCheck(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	// Break Mul and rewrite the expected value of the test that caught it.
	r.write("calc.go", strings.Replace(r.read("calc.go"), "return a * b", "return a*b + 1", 1))
	r.write("mul_test.go", strings.ReplaceAll(mulTest, "want 6", "want 7"))
	r.write("mul_test.go", strings.Replace(r.read("mul_test.go"), "got != 6", "got != 7", 1))
	r.commit("agent: fix the test")
	res := runGate(t, r.dir, "", "compare", "--format", "json", base)
	rep := parseCompare(t, res.stdout)
	if res.code != 1 || !rep.has("assertion_weakening", "tamper-check", "TestMul") {
		t.Fatalf("exit %d; want a tamper-check finding on TestMul: %+v\n%s", res.code, rep.Findings, res.stderr)
	}
	for _, f := range rep.Findings {
		if f.Rule == "tamper-check" && (f.Evidence != "measured" || !strings.Contains(f.Message, "want 6")) {
			t.Errorf("tamper finding lacks evidence or the failure message: %+v", f)
		}
	}

	// Only adding tests, or changing code without touching tests, does not trigger it.
	r2 := compareModule(t)
	base2 := r2.git("rev-parse", "HEAD")
	r2.write("more_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestMulZero(t *testing.T) {\n\tif Mul(0, 5) != 0 {\n\t\tt.Fatal(\"Mul(0, 5)\")\n\t}\n}\n")
	r2.commit("more tests")
	r2.write("calc.go", strings.Replace(r2.read("calc.go"), "// Sub subtracts.", "// Sub subtracts b from a.", 1))
	r2.commit("docs")
	res2 := runGate(t, r2.dir, "", "compare", "--format", "json", base2)
	rep2 := parseCompare(t, res2.stdout)
	if res2.code != 0 || rep2.has("assertion_weakening", "tamper-check", "") {
		t.Errorf("legitimate range: exit %d, findings %+v\n%s", res2.code, rep2.Findings, res2.stderr)
	}
}

func TestCompareReports(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	r.commit("empty")
	out := t.TempDir()
	gotest := func(name string) {
		// A real go test -json run, as an earlier CI step makes it.
		res := runCmd(t, r.dir, "go", "test", "-json", "-coverprofile="+filepath.Join(out, name+".cover"), "./...")
		if err := os.WriteFile(filepath.Join(out, name+".json"), []byte(res), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gotest("head")
	gotest("base")
	res := runGate(t, r.dir, "", "compare", "--format", "json",
		"--report", "gotest="+filepath.Join(out, "head.json"), "--report", "coverprofile="+filepath.Join(out, "head.cover"),
		"--base-report", "gotest="+filepath.Join(out, "base.json"), "--base-report", "coverprofile="+filepath.Join(out, "base.cover"),
		base)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	rep := parseCompare(t, res.stdout)
	if rep.Metrics.Head.TestCount == nil || *rep.Metrics.Head.TestCount != 3 {
		t.Errorf("metrics from reports: %+v", rep.Metrics.Head)
	}

	// A truncated report is an input error naming the file.
	data, _ := os.ReadFile(filepath.Join(out, "head.json"))
	bad := filepath.Join(out, "truncated.json")
	os.WriteFile(bad, data[:len(data)/2], 0o644)
	res = runGate(t, r.dir, "", "compare", "--report", "gotest="+bad, "--base-report", "gotest="+filepath.Join(out, "base.json"), base)
	if res.code != 2 || !strings.Contains(res.stderr, "truncated.json") {
		t.Errorf("truncated report: exit %d, stderr %q", res.code, res.stderr)
	}
	// No files at all for a glob.
	res = runGate(t, r.dir, "", "compare", "--report", "junit="+filepath.Join(out, "none-*.xml"), "--base-report", "gotest="+filepath.Join(out, "base.json"), "--collect", "none", base)
	if res.code != 2 || !strings.Contains(res.stderr, "none-*.xml") {
		t.Errorf("missing report: exit %d, stderr %q", res.code, res.stderr)
	}
	// No tests at all is never a pass.
	empty := newRepo(t)
	empty.write("go.mod", "module example.com/empty\n\ngo 1.26\n")
	empty.write("a.go", "package empty\n")
	eb := empty.commit("base")
	empty.write("b.go", "package empty\n")
	empty.commit("more")
	res = runGate(t, empty.dir, "", "compare", eb)
	if res.code != 2 || !strings.Contains(res.stderr, "no tests ran") {
		t.Errorf("no tests: exit %d, stderr %q", res.code, res.stderr)
	}
	if res := runGate(t, empty.dir, "", "compare", "--allow-missing", eb); res.code != 0 {
		t.Errorf("--allow-missing: exit %d, stderr %q", res.code, res.stderr)
	}
}

func (r *repo) read(path string) string {
	r.t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, path))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(b)
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestCompareForgedCacheIsMeasuredAgain: the code under test can write the
// cache directory; an entry changed outside ralph-gate (a forged
// measurement) is never read: both ends are measured again.
func TestCompareForgedCacheIsMeasuredAgain(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	r.write("calc.go", r.read("calc.go")+"\n// More docs.\n")
	r.commit("docs")
	first := parseCompare(t, runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD").stdout)
	entries, _ := filepath.Glob(filepath.Join(r.dir, ".git", "ralph-gate", "cache", "*.json"))
	forged := 0
	for _, e := range entries {
		b, _ := os.ReadFile(e)
		// A whole measurement's count, and any entry's value at all (a
		// package's results carried from the cache).
		f := regexp.MustCompile(`"test_count":\d+`).ReplaceAll(b, []byte(`"test_count":999`))
		f = []byte(strings.Replace(string(f), `"value":{`, `"value":{"forged":true,`, 1))
		if string(f) != string(b) {
			forged++
			os.WriteFile(e, f, 0o644)
		}
	}
	if forged == 0 {
		t.Fatalf("no cache entry holds a test_count to forge (%d entries)", len(entries))
	}
	again := parseCompare(t, runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD").stdout)
	if again.cached() != 0 {
		t.Errorf("a forged entry was read: %+v", again.Notes)
	}
	if h := again.Metrics.Head.TestCount; h == nil || *h == 999 || *h != *first.Metrics.Head.TestCount {
		t.Errorf("HEAD's test count %v, first run %v", h, first.Metrics.Head.TestCount)
	}
}
