package collectors

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMergeShards(t *testing.T) {
	shard1 := mustParse(t, JUnit{}, `<testsuite><testcase classname="c" name="a"/><testcase classname="c" name="b"><failure/></testcase><testcase classname="c" name="s"><skipped/></testcase></testsuite>`)
	shard2 := mustParse(t, JUnit{}, `<testsuite><testcase classname="c" name="d"/><testcase classname="c" name="b"/><testcase classname="c" name="s"/></testsuite>`)
	goShard := mustParse(t, GoTest{}, ev("start", "p", "", "")+ev("run", "p", "TestX", "")+ev("pass", "p", "TestX", "")+ev("pass", "p", "", ""))
	lcov1 := mustParse(t, LCOV{}, "SF:a.js\nDA:1,1\nDA:2,0\nDA:3,0\nend_of_record\n")
	lcov2 := mustParse(t, LCOV{}, "SF:a.js\nDA:1,2\nDA:2,0\nDA:3,4\nend_of_record\nSF:b.js\nDA:1,0\nend_of_record\n")
	lint1 := mustParse(t, ESLint{}, `[{"filePath":"/a.js","messages":[{"ruleId":"x","severity":2}]}]`)
	lint2 := mustParse(t, Checkstyle{}, `<checkstyle><file name="b"><error severity="warning" source="x"/><error severity="error" source="y"/></file></checkstyle>`)

	m := Merge(shard1, nil, shard2, goShard, lcov1, lcov2, lint1, lint2)

	wantOutcomes := map[string]string{"c.a": "passed", "c.b": "failed (flaky)", "c.d": "passed", "c.s": "passed", "p.TestX": "passed"}
	if diff := cmp.Diff(wantOutcomes, summarize(m).Outcomes); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if b, _ := m.Tests.Get("c.b"); b.Runs != 2 {
		t.Errorf("c.b runs = %d, want 2", b.Runs)
	}
	if got, _ := m.TestCounts(); got != (TestCounts{Total: 5, Passed: 4, Failed: 1}) {
		t.Errorf("counts = %+v, want 5 ids, 1 failed", got)
	}
	a := m.Coverage.Files["a.js"]
	if diff := cmp.Diff([]LineHit{{1, 3}, {2, 0}, {3, 4}}, a.LineHits()); diff != "" {
		t.Errorf("a.js hits (-want +got):\n%s", diff)
	}
	if got, _ := m.Coverage.Percent(); got != 50 { // a.js 2/3 + b.js 0/1
		t.Errorf("merged coverage = %v, want 50", got)
	}
	wantLint := &Diagnostics{Errors: 2, Warnings: 1, Rules: map[string]RuleCount{"x": {Errors: 1, Warnings: 1}, "y": {Errors: 1}}}
	if diff := cmp.Diff(wantLint, m.Lint); diff != "" {
		t.Errorf("lint (-want +got):\n%s", diff)
	}
	if m.TypeCheck != nil {
		t.Error("merged type check measured, want not measured")
	}
	if len(m.Sources) != 7 {
		t.Errorf("sources = %v, want 7", m.Sources)
	}
	// Inputs are not changed.
	if got, _ := shard1.TestCounts(); got.Total != 3 || shard1.Coverage != nil {
		t.Errorf("shard1 changed: %+v", got)
	}
	if _, hit := lcov1.Coverage.Files["a.js"].Lines(); hit != 1 {
		t.Error("lcov1 changed")
	}
}

func TestMergeCoverProfiles(t *testing.T) {
	a := mustParse(t, CoverProfile{}, "mode: set\nx.go:1.1,2.2 2 1\nx.go:3.1,4.2 2 0\n")
	b := mustParse(t, CoverProfile{}, "mode: set\nx.go:1.1,2.2 2 0\nx.go:3.1,4.2 2 1\ny.go:1.1,2.2 4 0\n")
	m := Merge(a, b)
	if got, _ := m.Coverage.Percent(); got != 50 {
		t.Errorf("merged = %v, want 50 (4 of 8 statements)", got)
	}
	if total, hit := m.Coverage.Files["x.go"].Statements(); total != 4 || hit != 4 {
		t.Errorf("x.go = %d/%d, want 4/4", hit, total)
	}
	if m.Coverage.Mode != "set" {
		t.Errorf("mode = %q", m.Coverage.Mode)
	}
}

func TestMergeStatedCoverage(t *testing.T) {
	one := mustParse(t, Cobertura{}, `<coverage line-rate="0.9"><packages><package><classes><class filename="a"><lines><line number="1" hits="1"/><line number="2" hits="0"/></lines></class></classes></package></packages></coverage>`)
	if got, _ := Merge(one).Coverage.Percent(); got != 90 {
		t.Errorf("one report keeps its stated rate: got %v, want 90", got)
	}
	two := mustParse(t, Cobertura{}, `<coverage line-rate="1"><packages><package><classes><class filename="a"><lines><line number="2" hits="1"/></lines></class></classes></package></packages></coverage>`)
	if got, _ := Merge(one, two).Coverage.Percent(); got != 100 {
		t.Errorf("two reports: got %v, want 100 from the merged lines", got)
	}
	if *one.Coverage.Stated != 90 {
		t.Error("input changed")
	}
}

func TestMergeNothing(t *testing.T) {
	m := Merge()
	if m.Tests != nil || m.Coverage != nil || m.Lint != nil || m.TypeCheck != nil {
		t.Errorf("Merge() = %+v, want nothing measured", m)
	}
}

func TestTestsStore(t *testing.T) {
	var ts Tests
	long := strings.Repeat("n", 3<<20) // longer than an arena chunk
	ids := []Test{
		{Suite: "pkg", Name: "TestA", Outcome: Passed},
		{ID: "suite > case", Outcome: Skipped, Message: "todo"},
		{ID: "plain", Outcome: Failed, File: "a_test.go"},
		{Suite: "pkg", Name: long, Outcome: Passed},
		{Suite: "pkg", Name: "TestB", Outcome: Errored},
	}
	for _, tc := range ids {
		if !ts.Add(tc) {
			t.Fatalf("Add(%q) failed", tc.ID)
		}
	}
	for i := 0; i < 5000; i++ { // forces the table to grow several times
		ts.Add(Test{Suite: "bulk", Name: "T" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + strconv.Itoa(i), Outcome: Passed})
	}
	// The same ids, split differently, are the same tests.
	ts.Add(Test{ID: "pkg.TestA", Outcome: Failed, Message: "boom"})
	ts.Add(Test{Suite: "suite", Name: "case", ID: "suite > case", Outcome: Passed})
	ts.Add(Test{Name: "plain", Outcome: Passed})
	if ts.Len() != 5005 {
		t.Errorf("Len() = %d, want 5005", ts.Len())
	}
	tests := []struct {
		id   string
		want Test
	}{
		{"pkg.TestA", Test{ID: "pkg.TestA", Suite: "pkg", Name: "TestA", Outcome: Failed, Flaky: true, Runs: 2, Message: "boom"}},
		{"suite > case", Test{ID: "suite > case", Name: "suite > case", Outcome: Passed, Runs: 2}}, // split as first added
		{"plain", Test{ID: "plain", Name: "plain", File: "a_test.go", Outcome: Failed, Flaky: true, Runs: 2}},
		{"pkg.TestB", Test{ID: "pkg.TestB", Suite: "pkg", Name: "TestB", Outcome: Errored, Runs: 1}},
	}
	for _, tc := range tests {
		got, ok := ts.Get(tc.id)
		if !ok {
			t.Errorf("Get(%q) not found", tc.id)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Get(%q) (-want +got):\n%s", tc.id, diff)
		}
	}
	if got, ok := ts.Get("pkg." + long); !ok || got.Name != long {
		t.Error("long name lost")
	}
	if _, ok := ts.Get("pkg.TestC"); ok {
		t.Error("Get(pkg.TestC) found a test that was never added")
	}
	if _, ok := ts.Get("pkg"); ok {
		t.Error("Get(pkg) found a test")
	}
	for i := 0; i < 5000; i += 997 {
		id := "bulk.T" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + strconv.Itoa(i)
		if _, ok := ts.Get(id); !ok {
			t.Errorf("Get(%q) not found", id)
		}
	}
	if ids := ts.IDs(); len(ids) != 5005 || ids[0] != "bulk.Ta0" {
		t.Errorf("IDs() = %d ids starting %q", len(ids), ids[0])
	}
	if (&Tests{}).Add(Test{}) {
		t.Error("Add accepted a test without an id")
	}
	var nilTests *Tests
	if nilTests.Len() != 0 || len(nilTests.IDs()) != 0 {
		t.Error("nil Tests not empty")
	}
	if _, ok := nilTests.Get("x"); ok {
		t.Error("nil Tests has x")
	}
}

func TestMergeKeepsIntegrity(t *testing.T) {
	a := &Result{Integrity: []IntegrityProblem{{Package: "a", Problem: "x"}}}
	b := &Result{Integrity: []IntegrityProblem{{Package: "b", Problem: "y"}}}
	if got := Merge(a, nil, b).Integrity; len(got) != 2 || got[0].Package != "a" || got[1].Package != "b" {
		t.Errorf("Merge lost integrity problems: %+v", got)
	}
}
