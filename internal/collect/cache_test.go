package collect

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

func parseReport(t testing.TB, format, text string) *collectors.Result {
	t.Helper()
	p, err := collectors.New(format)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Parse(format+" fixture", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// sampleResult merges reports of every kind a measurement holds.
func sampleResult(t testing.TB) *collectors.Result {
	junit := parseReport(t, "junit", `<testsuites><testsuite name="sum.test.ts">
<testcase classname="sum" name="adds"/>
<testcase classname="sum" name="fails"><failure message="expected 3">expected 3, got 4</failure></testcase>
<testcase classname="sum" name="later"><skipped/></testcase>
<testcase classname="sum" name="crashes"><error message="TypeError">TypeError: x is undefined</error></testcase>
</testsuite></testsuites>`)
	profile := parseReport(t, "coverprofile", "mode: count\nexample.com/m/a.go:3.24,5.2 1 7\nexample.com/m/a.go:7.24,9.2 2 0\n")
	lcov := parseReport(t, "lcov", "SF:src/sum.ts\nDA:1,3\nDA:2,0\nDA:9,1\nend_of_record\nSF:src/empty.ts\nend_of_record\n")
	tsc := parseReport(t, "tsc", "src/sum.ts(5,14): error TS2322: Type 'string' is not assignable to type 'number'.\n")
	eslint := parseReport(t, "eslint", `[{"filePath":"/src/a.js","messages":[{"ruleId":"no-unused-vars","severity":2,"message":"x","line":1,"column":7},{"ruleId":"eqeqeq","severity":1,"message":"y","line":2,"column":1}],"suppressedMessages":[],"errorCount":1,"fatalErrorCount":0,"warningCount":1,"fixableErrorCount":0,"fixableWarningCount":0}]`)
	return collectors.Merge(junit, profile, lcov, tsc, eslint)
}

// branchResult merges reports with branch data: LCOV branches (named
// labels and a branch expression with a comma among them) and Cobertura
// conditions, one file in both.
func branchResult(t testing.TB) *collectors.Result {
	lcov := parseReport(t, "lcov", "SF:src/sum.ts\nDA:1,3\nDA:2,0\nBRDA:1,0,0,3\nBRDA:1,0,1,-\nBRDA:2,e0,(a, b),0\nend_of_record\nSF:src/<&>.ts\nDA:4,1\nBRDA:4,1,0,1\nend_of_record\n")
	cob := parseReport(t, "cobertura", `<coverage branch-rate="0.5" branches-valid="4"><packages><package><classes>
<class filename="app/calc.py"><lines><line number="1" hits="2" branch="true" condition-coverage="50% (1/2)"/><line number="3" hits="0" branch="true" condition-coverage="0% (0/2)"/><line number="4" hits="1"/></lines></class>
<class filename="src/&lt;&amp;&gt;.ts"><lines><line number="4" hits="1" branch="true" condition-coverage="100% (2/2)"/></lines></class>
</classes></package></packages></coverage>`)
	return collectors.Merge(lcov, cob)
}

// coverageView is what callers read of coverage, for comparison.
func coverageView(c *collectors.Coverage) map[string]any {
	out := map[string]any{"mode": c.Mode}
	if c.Stated != nil {
		out["stated"] = *c.Stated
	}
	if c.StatedBranch != nil {
		out["stated branch"] = *c.StatedBranch
	}
	pct, ok := c.Percent()
	out["percent"], out["ok"] = pct, ok
	bpct, bok := c.BranchPercent()
	out["branch percent"], out["branch ok"] = bpct, bok
	for _, p := range c.Paths() {
		f := c.Files[p]
		fp, fok := f.Percent()
		total, hit := f.Statements()
		out[p] = []any{fp, fok, total, hit, f.LineHits(), f.Blocks(), f.BranchHits(), f.Conditions()}
	}
	return out
}

func TestMeasurementJSONRoundTrip(t *testing.T) {
	stated := 81.5
	withStated := sampleResult(t)
	withStated.Coverage.Stated = &stated
	withIntegrity := sampleResult(t)
	withIntegrity.Integrity = []collectors.IntegrityProblem{{Package: "calc", Problem: "its JUnit report declares 3 tests and lists 1"}}
	statedBranch := 62.5
	withStatedBranch := branchResult(t)
	withStatedBranch.Coverage.StatedBranch = &statedBranch
	for name, r := range map[string]*collectors.Result{"merged reports": sampleResult(t), "stated coverage": withStated, "integrity problems": withIntegrity,
		"branches": branchResult(t), "stated branch coverage": withStatedBranch, "no result": nil} {
		t.Run(name, func(t *testing.T) {
			m := &Measurement{Commit: strings.Repeat("a", 40), Result: r, Tools: map[string]string{"go version": "go version go1.26"}}
			deriveMetrics(&m.Metrics, r)
			b, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			var got Measurement
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(m.Metrics, got.Metrics); diff != "" {
				t.Errorf("metrics (-want +got):\n%s", diff)
			}
			if r == nil {
				if got.Result != nil {
					t.Errorf("result = %+v, want nil", got.Result)
				}
				return
			}
			if diff := cmp.Diff(testList(r), testList(got.Result)); diff != "" {
				t.Errorf("tests (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(coverageView(r.Coverage), coverageView(got.Result.Coverage)); diff != "" {
				t.Errorf("coverage (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(r.Lint, got.Result.Lint); diff != "" {
				t.Errorf("lint (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(r.TypeCheck, got.Result.TypeCheck); diff != "" {
				t.Errorf("type check (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(r.Integrity, got.Result.Integrity); diff != "" {
				t.Errorf("integrity (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDeriveMetrics(t *testing.T) {
	var got gate.Metrics
	deriveMetrics(&got, sampleResult(t))
	four, one, fifty := 4, 1, 50.0
	// Errored tests count as failed; coverage is 1 of 3 Go statements and 2
	// of 3 LCOV lines.
	want := gate.Metrics{
		TestCount:          &four,
		Tests:              &gate.TestStats{Total: 4, Passed: 1, Failed: 2, Skipped: 1},
		CoveragePercentage: &fifty,
		TypescriptErrors:   &one,
		LintErrors:         &one,
		LintWarnings:       &one,
		CoverageUnit:       "statement+line",
		TestIDs: &gate.TestIDs{Failed: []string{"sum.crashes", "sum.fails"}, Skipped: []string{"sum.later"},
			Passed: []string{"sum.adds"}},
		FileCoverage: map[string]float64{"example.com/m/a.go": 33.33, "src/sum.ts": 66.67},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("metrics (-want +got):\n%s", diff)
	}
	var empty gate.Metrics
	deriveMetrics(&empty, &collectors.Result{})
	if diff := cmp.Diff(gate.Metrics{}, empty); diff != "" {
		t.Errorf("nothing measured must stay nil (-want +got):\n%s", diff)
	}
}

func TestDeriveBranchCoverage(t *testing.T) {
	// LCOV's 2 of 4 branches and Cobertura's 3 of 6 conditions (its stated
	// branch-rate is dropped by the merge of two reports).
	var got gate.Metrics
	deriveMetrics(&got, branchResult(t))
	if got.BranchCoveragePercentage == nil || *got.BranchCoveragePercentage != 50 {
		t.Errorf("branch_coverage_percentage = %v, want 50", got.BranchCoveragePercentage)
	}
	// A Go cover profile has no branch data: not measured, never 0%.
	var goOnly gate.Metrics
	deriveMetrics(&goOnly, parseReport(t, "coverprofile", "mode: set\nexample.com/m/a.go:3.24,5.2 1 1\n"))
	if goOnly.CoveragePercentage == nil || goOnly.BranchCoveragePercentage != nil {
		t.Errorf("Go profile: coverage %v, branch coverage %v; want measured, not measured", goOnly.CoveragePercentage, goOnly.BranchCoveragePercentage)
	}
}

func TestCache(t *testing.T) {
	c := NewCache(filepath.Join(t.TempDir(), "cache"))
	specs := []config.Collector{{Name: "unit", Argv: []string{"go", "test"}}}
	tree := plumbing.NewHash(strings.Repeat("ab", 20))
	key := CacheKey(tree, specs, map[string]string{"go version": "go1.26"})
	for name, other := range map[string]string{
		"tree":  CacheKey(plumbing.NewHash(strings.Repeat("cd", 20)), specs, map[string]string{"go version": "go1.26"}),
		"specs": CacheKey(tree, []config.Collector{{Name: "unit", Argv: []string{"go", "test", "-race"}}}, map[string]string{"go version": "go1.26"}),
		"tools": CacheKey(tree, specs, map[string]string{"go version": "go1.25"}),
	} {
		if other == key {
			t.Errorf("a different %s gives the same key", name)
		}
	}
	if _, ok := c.Get(key); ok {
		t.Fatal("hit in an empty cache")
	}
	m := &Measurement{Commit: "c", Result: sampleResult(t)}
	deriveMetrics(&m.Metrics, m.Result)

	// Concurrent writers and readers: every read is a miss or a whole entry.
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if err := c.Put(key, m); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if got, ok := c.Get(key); ok && got.Commit != "c" {
				t.Errorf("partial entry read: %+v", got)
			}
		}()
	}
	wg.Wait()
	got, ok := c.Get(key)
	if !ok {
		t.Fatal("miss after Put")
	}
	if diff := cmp.Diff(m.Metrics, got.Metrics); diff != "" {
		t.Errorf("metrics (-want +got):\n%s", diff)
	}
	entries, _ := os.ReadDir(c.Dir())
	if len(entries) != 1 {
		t.Errorf("cache holds %d files, want 1 (no temporary files left)", len(entries))
	}

	// A corrupt entry is a miss, and is rewritten.
	for _, corrupt := range []string{"{\"metrics\": {", "null", "", `{"key": "` + strings.Repeat("0", 64) + `", "measurement": {}}`, `{"key": "` + key + `", "measurement": {"result": {"tests": [{"id": "x", "outcome": "exploded"}]}}}`} {
		if err := os.WriteFile(filepath.Join(c.Dir(), key+".json"), []byte(corrupt), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, ok := c.Get(key); ok {
			t.Errorf("corrupt entry %q read as %+v", corrupt, got)
		}
		if err := c.Put(key, m); err != nil {
			t.Fatal(err)
		}
		if _, ok := c.Get(key); !ok {
			t.Error("rewritten entry not read")
		}
	}
	if _, ok := c.Get("../../etc/passwd"); ok {
		t.Error("a key that is not a hash was read")
	}
	if err := c.Put("not-a-key", m); err == nil {
		t.Error("Put accepted a key that is not a hash")
	}
}

func TestOpenCacheSharedByWorktrees(t *testing.T) {
	dir, commit := newRepo(t, map[string]string{"a": "a\n"})
	linked := filepath.Join(t.TempDir(), "linked")
	runGit(t, dir, "worktree", "add", "-q", "--detach", linked, commit.String())
	main, err := OpenCache(openRepo(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	other, err := OpenCache(openRepo(t, linked))
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, ".git", "ralph-gate", "cache")
	if main.Dir() != want || other.Dir() != want {
		t.Errorf("cache dirs %s and %s, want both %s", main.Dir(), other.Dir(), want)
	}
}

func TestCacheJSON(t *testing.T) {
	c := NewCache(t.TempDir())
	key := Key(nil, map[string]string{"go version": "go1.26"}, "go import graph", "tree abc")
	if key == Key(nil, map[string]string{"go version": "go1.25"}, "go import graph", "tree abc") || key == Key(nil, nil, "go import graph", "tree abd") {
		t.Fatal("a key does not depend on its tools or lines")
	}
	type graph struct{ Packages []string }
	var g graph
	if c.GetJSON(key, &g) {
		t.Fatal("a hit in an empty cache")
	}
	if err := c.PutJSON(key, graph{[]string{"a", "b"}}); err != nil {
		t.Fatal(err)
	}
	if !c.GetJSON(key, &g) || len(g.Packages) != 2 {
		t.Fatalf("round trip: %+v", g)
	}
	// A misnamed entry is never read as the value of another key.
	other := Key(nil, nil, "other")
	p, _ := c.path(key)
	q, _ := c.path(other)
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(q, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if c.GetJSON(other, &g) {
		t.Error("an entry copied under another key was read")
	}
	if err := os.WriteFile(p, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if c.GetJSON(key, &g) {
		t.Error("a truncated entry was read")
	}
}

// TestCacheSealed: with a key, the cache reads only what it sealed: an entry
// the code under test forged or edited, one written without the key or
// under another key, is a miss.
func TestCacheSealed(t *testing.T) {
	dir := t.TempDir()
	sealed := NewCache(dir)
	sealed.SetKey([]byte("the user's key"))
	key := Key(nil, nil, "tree abc")
	n := 3
	m := &Measurement{Commit: "abc", Metrics: gate.Metrics{TestCount: &n}}
	if err := sealed.Put(key, m); err != nil {
		t.Fatal(err)
	}
	if got, ok := sealed.Get(key); !ok || *got.Metrics.TestCount != 3 {
		t.Fatalf("a sealed entry was not read back: %+v %v", got, ok)
	}
	p, _ := sealed.path(key)
	b, _ := os.ReadFile(p)

	// Forged: the value edited, the seal kept.
	forged := strings.Replace(string(b), `"test_count":3`, `"test_count":9`, 1)
	if forged == string(b) {
		t.Fatalf("the entry has no test_count to forge: %s", b)
	}
	os.WriteFile(p, []byte(forged), 0o644)
	if _, ok := sealed.Get(key); ok {
		t.Error("an edited entry was read")
	}
	// Written by someone without the key.
	if err := NewCache(dir).Put(key, m); err != nil {
		t.Fatal(err)
	}
	if _, ok := sealed.Get(key); ok {
		t.Error("an unsealed entry was read by a sealed cache")
	}
	// Sealed under another key.
	other := NewCache(dir)
	other.SetKey([]byte("another key"))
	if err := other.Put(key, m); err != nil {
		t.Fatal(err)
	}
	if _, ok := sealed.Get(key); ok {
		t.Error("an entry sealed under another key was read")
	}
}
