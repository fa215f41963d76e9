package collectors

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLCOVBranches(t *testing.T) {
	// Two records of a.js (one per test name) whose branches sum; a block
	// that never ran ("-"); an exception block ("e0"); lcov 2's branch
	// expressions, which may hold commas; coverage.py's line 0.
	input := "TN:unit\nSF:a.js\nDA:1,1\nBRDA:1,0,0,1\nBRDA:1,0,1,-\nBRDA:2,e0,0,0\nBRDA:3,1,(x, y) == 1,2\nBRDA:0,4,0,-\nBRF:5\nBRH:2\nend_of_record\n" +
		"TN:e2e\nSF:a.js\nBRDA:1,0,1,3\nBRDA:1,0,0,-\nend_of_record\n"
	r := mustParse(t, LCOV{}, input)
	f := r.Coverage.Files["a.js"]
	want := []BranchHit{
		{Line: 0, Block: "4", Branch: "0", Taken: 0},
		{Line: 1, Block: "0", Branch: "0", Taken: 1},
		{Line: 1, Block: "0", Branch: "1", Taken: 3},
		{Line: 2, Block: "e0", Branch: "0", Taken: 0},
		{Line: 3, Block: "1", Branch: "(x, y) == 1", Taken: 2},
	}
	if diff := cmp.Diff(want, f.BranchHits()); diff != "" {
		t.Errorf("branches (-want +got):\n%s", diff)
	}
	if found, hit := f.Branches(); found != 5 || hit != 3 {
		t.Errorf("Branches() = %d, %d, want 5, 3", found, hit)
	}
	if got, ok := r.Coverage.BranchPercent(); !ok || got != 60 {
		t.Errorf("BranchPercent() = %v, %v, want 60", got, ok)
	}
}

func TestNoBranchData(t *testing.T) {
	for _, c := range []struct {
		name, format, input string
	}{
		{"go cover profile", FormatCoverProfile, "mode: set\na.go:1.1,2.2 3 1\n"},
		// BRF/BRH are summaries, not data: without BRDA there are no branches.
		{"lcov without BRDA", FormatLCOV, "SF:a.js\nDA:1,1\nBRF:0\nBRH:0\nend_of_record\n"},
		{"lcov summary only", FormatLCOV, "SF:a.js\nDA:1,1\nBRF:4\nBRH:2\nend_of_record\n"},
		// coverage.py without --branch, gocover-cobertura.
		{"cobertura branch-rate 0 of 0", FormatCobertura, `<coverage line-rate="1" branch-rate="0" branches-valid="0" branches-covered="0"><packages><package><classes><class filename="a"><lines><line number="1" hits="1"/></lines></class></classes></package></packages></coverage>`},
		{"cobertura without branch attributes", FormatCobertura, `<coverage line-rate="1"><packages><package><classes><class filename="a"><lines><line number="1" hits="1" branch="false"/></lines></class></classes></package></packages></coverage>`},
		{"cobertura rate without data", FormatCobertura, `<coverage line-rate="1" branch-rate="0"><packages><package><classes><class filename="a"><lines><line number="1" hits="1"/></lines></class></classes></package></packages></coverage>`},
		// Unreadable branch figures of a report without branch data are
		// ignored, as before branch coverage was read.
		{"cobertura unreadable rate without data", FormatCobertura, `<coverage line-rate="1" branch-rate="NaN" branches-valid="n/a"><packages><package><classes><class filename="a"><lines><line number="1" hits="1"/></lines></class></classes></package></packages></coverage>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := New(c.format)
			if err != nil {
				t.Fatal(err)
			}
			r, err := p.Parse(c.name, strings.NewReader(c.input))
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := r.Coverage.Percent(); !ok {
				t.Fatal("no line coverage")
			}
			if got, ok := r.Coverage.BranchPercent(); ok {
				t.Errorf("BranchPercent() = %v, want no branch data (ok false)", got)
			}
		})
	}
	var nilCov *Coverage
	if _, ok := nilCov.BranchPercent(); ok {
		t.Error("nil coverage has branch coverage")
	}
}

func TestCoberturaBranches(t *testing.T) {
	lines := `<packages><package><classes>
<class filename="a.py"><lines><line number="1" hits="1" branch="true" condition-coverage="50% (1/2)"/><line number="2" hits="0" branch="true" condition-coverage="0% (0/2)"/><line number="3" hits="1" branch="false"/></lines></class>
<class filename="a.py"><lines><line number="1" hits="1" branch="true" condition-coverage="100% (2/2)"/></lines></class>
<class filename="b.py"><lines><line number="7" hits="4" branch="true" condition-coverage="75% (3/4)"/></lines></class>
</classes></package></packages>`
	for _, c := range []struct {
		name, root string
		want       float64
		stated     bool
	}{
		{"stated", `<coverage line-rate="0.5" branch-rate="0.625" branches-valid="8" branches-covered="5">`, 62.5, true},
		{"no branches-valid: the lines say there is data", `<coverage line-rate="0.5" branch-rate="0.6">`, 60, true},
		{"no branch-rate", `<coverage line-rate="0.5">`, 62.5, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := mustParse(t, Cobertura{}, c.root+lines+"</coverage>")
			if got, ok := r.Coverage.BranchPercent(); !ok || got != c.want || (r.Coverage.StatedBranch != nil) != c.stated {
				t.Errorf("BranchPercent() = %v, %v (stated %v), want %v (stated %v)", got, ok, r.Coverage.StatedBranch != nil, c.want, c.stated)
			}
			// a.py's line 1, listed twice, keeps the larger counts.
			want := []LineConditions{{Line: 1, Covered: 2, Valid: 2}, {Line: 2, Covered: 0, Valid: 2}}
			if diff := cmp.Diff(want, r.Coverage.Files["a.py"].Conditions()); diff != "" {
				t.Errorf("a.py conditions (-want +got):\n%s", diff)
			}
			if found, hit := r.Coverage.Branches(); found != 8 || hit != 5 {
				t.Errorf("Branches() = %d, %d, want 8, 5", found, hit)
			}
		})
	}
}

func TestMergeBranches(t *testing.T) {
	a := mustParse(t, LCOV{}, "SF:a.js\nDA:1,1\nBRDA:1,0,0,1\nBRDA:1,0,1,0\nBRDA:2,0,x,0\nend_of_record\n")
	b := mustParse(t, LCOV{}, "SF:a.js\nDA:1,1\nBRDA:1,0,0,0\nBRDA:1,0,1,2\nBRDA:2,0,x,-\nend_of_record\nSF:b.js\nDA:1,0\nBRDA:1,0,0,0\nend_of_record\n")
	m := Merge(a, b)
	// Shards of one suite: a branch taken in either is taken.
	if found, hit := m.Coverage.Files["a.js"].Branches(); found != 3 || hit != 2 {
		t.Errorf("a.js = %d of %d branches, want 2 of 3", hit, found)
	}
	if got, ok := m.Coverage.BranchPercent(); !ok || got != 50 {
		t.Errorf("merged BranchPercent() = %v, %v, want 50 (2 of 4)", got, ok)
	}
	if found, _ := a.Coverage.Branches(); found != 3 {
		t.Error("input changed")
	}
	// Cobertura's conditions do not say which ran: the larger counts stay.
	c1 := mustParse(t, Cobertura{}, `<coverage branch-rate="0.5" branches-valid="2"><packages><package><classes><class filename="a.py"><lines><line number="1" hits="1" condition-coverage="50% (1/2)"/></lines></class></classes></package></packages></coverage>`)
	c2 := mustParse(t, Cobertura{}, `<coverage branch-rate="0.25" branches-valid="4"><packages><package><classes><class filename="a.py"><lines><line number="1" hits="1" condition-coverage="25% (1/4)"/></lines></class></classes></package></packages></coverage>`)
	if got, _ := Merge(c1).Coverage.BranchPercent(); got != 50 {
		t.Errorf("one report keeps its stated branch rate: got %v, want 50", got)
	}
	mc := Merge(c1, c2)
	if mc.Coverage.StatedBranch != nil {
		t.Error("two reports keep a stated branch rate")
	}
	if got, ok := mc.Coverage.BranchPercent(); !ok || got != 25 {
		t.Errorf("merged conditions = %v, %v, want 25 (1 of 4)", got, ok)
	}
	// A Go profile merged with an LCOV report: branch data of the LCOV part.
	g := mustParse(t, CoverProfile{}, "mode: set\na.go:1.1,2.2 3 1\n")
	if _, ok := Merge(g, g).Coverage.BranchPercent(); ok {
		t.Error("merged Go profiles have branch coverage")
	}
	if got, ok := Merge(g, a).Coverage.BranchPercent(); !ok || got != 100.0/3 {
		t.Errorf("Go and LCOV merged = %v, %v, want the LCOV part's 33.3", got, ok)
	}
}

// TestBranchesInBothFormats reads the LCOV and Cobertura reports one run
// wrote (testdata/branches-sample.txtar): both count the same branches, and
// taken ones, file by file.
func TestBranchesInBothFormats(t *testing.T) {
	for _, run := range []string{"c8-branches", "coverage-py-branches"} {
		t.Run(run, func(t *testing.T) {
			lcov, err := parseFile(t, "lcov", "testdata/lcov/"+run+".info")
			if err != nil {
				t.Fatal(err)
			}
			cob, err := parseFile(t, "cobertura", "testdata/cobertura/"+run+".xml")
			if err != nil {
				t.Fatal(err)
			}
			count := func(c *Coverage) map[string][2]int64 {
				out := map[string][2]int64{}
				for p, f := range c.Files {
					if found, hit := f.Branches(); found > 0 {
						out[p] = [2]int64{found, hit}
					}
				}
				return out
			}
			if diff := cmp.Diff(count(lcov.Coverage), count(cob.Coverage)); diff != "" {
				t.Errorf("branches found and hit by file (-lcov +cobertura):\n%s", diff)
			}
		})
	}
}
