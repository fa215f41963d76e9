package collectors

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCoverProfileCases(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  float64
		mode  string
	}{
		{"set", "mode: set\na.go:1.1,2.2 3 1\na.go:3.1,4.2 1 0\n", 75, "set"},
		{"count sums duplicates", "mode: count\na.go:1.1,2.2 1 0\na.go:1.1,2.2 1 2\nb.go:1.1,1.9 1 0\n", 50, "count"},
		{"concatenated profiles", "mode: atomic\na.go:1.1,2.2 1 1\nmode: atomic\nb.go:1.1,2.2 1 0\n\n", 50, "atomic"},
		{"file names with colons", "mode: set\nC:/src/a.go:1.1,2.2 2 1\r\n", 100, "set"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := mustParse(t, CoverProfile{}, tc.input)
			got, ok := r.Coverage.Percent()
			if !ok || got != tc.want || r.Coverage.Mode != tc.mode {
				t.Errorf("Percent() = %v, %v, mode %q; want %v, %q", got, ok, r.Coverage.Mode, tc.want, tc.mode)
			}
		})
	}
}

func TestLCOVCases(t *testing.T) {
	input := "TN:unit\nSF:a.js\nFN:1,3,f\nFNDA:2,f\nFNL:0,1,3\nFNA:0,2,f\nDA:1,2\nDA:2,0,abcd\nBRDA:2,0,0,-\nBRDA:2,e0,1,1\nLF:2\nLH:1\nXYZ:new record\nend_of_record\n" +
		"TN:e2e\nSF:a.js\nDA:2,5\nDA:3,0\nend_of_record\n"
	r := mustParse(t, LCOV{}, input)
	f := r.Coverage.Files["a.js"]
	want := []LineHit{{1, 2}, {2, 5}, {3, 0}}
	if diff := cmp.Diff(want, f.LineHits()); diff != "" {
		t.Errorf("line hits (-want +got):\n%s", diff)
	}
	if found, hit := f.Lines(); found != 3 || hit != 2 {
		t.Errorf("Lines() = %d, %d, want 3, 2", found, hit)
	}
}

func TestCoberturaCases(t *testing.T) {
	input := `<?xml version="1.0"?>
<!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">
<coverage line-rate="0.5"><packages><package name="p"><classes>
<class name="A" filename="a.go"><methods><method name="m"><lines><line number="1" hits="3"/></lines></method></methods>
<lines><line number="1" hits="3"/><line number="2" hits="0"/></lines></class>
<class name="B" filename="a.go"><lines><line number="2" hits="0"/><line number="5" hits="1" branch="true" condition-coverage="50% (1/2)"/></lines></class>
</classes></package></packages></coverage>`
	r := mustParse(t, Cobertura{}, input)
	if got, _ := r.Coverage.Percent(); got != 50 {
		t.Errorf("Percent() = %v, want the stated 50", got)
	}
	f := r.Coverage.Files["a.go"]
	if diff := cmp.Diff([]LineHit{{1, 3}, {2, 0}, {5, 1}}, f.LineHits()); diff != "" {
		t.Errorf("line hits (-want +got):\n%s", diff)
	}
	if got, _ := f.Percent(); got != 200.0/3 {
		t.Errorf("file Percent() = %v, want 66.67", got)
	}
	noRate := mustParse(t, Cobertura{}, `<coverage><packages><package><classes><class filename="b"><lines><line number="1" hits="0"/><line number="2" hits="1"/></lines></class></classes></package></packages></coverage>`)
	if got, ok := noRate.Coverage.Percent(); !ok || got != 50 {
		t.Errorf("Percent() without line-rate = %v, %v, want 50 from the lines", got, ok)
	}
}

func TestLineHits(t *testing.T) {
	var l lineHits
	l.add(3, 1, true)
	l.add(1, 0, true)
	l.add(3, 2, true)
	l.add(2_000_000_000, 4, true) // far away: stored sparsely
	l.add(2_000_000_000, 0, false)
	l.add(5, 1<<40, true) // saturates
	l.add(0, 1, true)     // ignored
	l.add(4, -1, true)    // ignored
	want := []LineHit{{1, 0}, {3, 3}, {5, maxDenseHits}, {2_000_000_000, 4}}
	if diff := cmp.Diff(want, l.all()); diff != "" {
		t.Errorf("all() (-want +got):\n%s", diff)
	}
	if l.found != 4 || l.hit != 3 {
		t.Errorf("found, hit = %d, %d, want 4, 3", l.found, l.hit)
	}
	if len(l.dense) > 16 {
		t.Errorf("dense grew to %d for a far line", len(l.dense))
	}
	if h, ok := l.get(2); ok || h != 0 {
		t.Errorf("get(2) = %d, %v, want absent", h, ok)
	}
}

func TestCoverageNotMeasured(t *testing.T) {
	var c *Coverage
	if _, ok := c.Percent(); ok {
		t.Error("nil coverage has a percentage")
	}
	empty := &Coverage{Files: map[string]*FileCoverage{}}
	if _, ok := empty.Percent(); ok {
		t.Error("coverage of nothing has a percentage")
	}
}

func TestCoverageUnit(t *testing.T) {
	profile := "mode: set\nexample.com/m/a.go:3.10,5.2 2 1\n"
	lcov := "SF:b.js\nDA:1,1\nDA:2,0\nend_of_record\n"
	parse := func(format, text string) *Result {
		t.Helper()
		p, err := New(format)
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Parse(format, strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, c := range []struct {
		name string
		r    *Result
		want string
	}{
		{"cover profile", parse(FormatCoverProfile, profile), UnitStatement},
		{"lcov", parse(FormatLCOV, lcov), UnitLine},
		{"both merged", Merge(parse(FormatCoverProfile, profile), parse(FormatLCOV, lcov)), UnitMixed},
		{"nothing", &Result{Coverage: &Coverage{}}, ""},
	} {
		if got := c.r.Coverage.Unit(); got != c.want {
			t.Errorf("%s: unit %q, want %q", c.name, got, c.want)
		}
	}
}
