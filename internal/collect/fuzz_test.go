package collect

import (
	"encoding/json"
	"testing"
)

func FuzzComplexity(f *testing.F) {
	seeds := []struct{ src, ext string }{
		{"package a\nfunc f(a, b bool) { if a && b { for {} } }\n", ".go"},
		{"var s = `raw ${x}` + \"q\\\"\" + '\\''\n", ".go"},
		{"const t = `a ${b ? `c ${d || e}` : 'f'} g`; while (x) {}\n", ".ts"},
		{"let s = r##\"if\"##; /* a /* b */ c */ fn f<'a>(x: &'a str) {}\n", ".rs"},
		{"String s = \"\"\"\nif\n\"\"\"; try {} catch (E e) {}\n", ".java"},
		{"def f():\n    '''doc if'''\n    return a and b or c  # if\n", ".py"},
		{"`${`${`${", ".js"},
		{"r#\"", ".rs"},
		{"'''", ".py"},
	}
	for _, s := range seeds {
		f.Add([]byte(s.src), s.ext)
	}
	f.Fuzz(func(t *testing.T, src []byte, ext string) {
		n := Complexity(src, ext)
		// Every decision point takes at least two bytes ("if", "&&").
		if n < 0 || 2*n > len(src) {
			t.Fatalf("Complexity = %d for %d bytes", n, len(src))
		}
		if l := nonBlankLines(src); l < 0 || l > len(src) {
			t.Fatalf("nonBlankLines = %d for %d bytes", l, len(src))
		}
	})
}

// FuzzCacheEntry feeds arbitrary bytes to the cache's decoder: a corrupt
// entry must be an error, never a panic, and what decodes must encode again.
func FuzzCacheEntry(f *testing.F) {
	m := &Measurement{Commit: "c", Result: sampleResult(f)}
	deriveMetrics(&m.Metrics, m.Result)
	good, err := json.Marshal(m)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	branches := &Measurement{Commit: "c", Result: branchResult(f)}
	deriveMetrics(&branches.Metrics, branches.Result)
	withBranches, err := json.Marshal(branches)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(withBranches)
	f.Add([]byte(`{"result": {"tests": [{"id": "a", "outcome": "passed"}], "coverage": {"coverprofile": "mode: set\na.go:1.1,2.2 1 1\n", "lcov": "SF:b.js\nDA:1,0\nend_of_record\n"}}}`))
	f.Add([]byte(`{"result": {"coverage": {"coverprofile": "a.go:1.1,2.2 1 1\n"}}}`))
	f.Add([]byte(`{"result": {"tests": [{"id": "", "outcome": "passed"}]}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var got Measurement
		if err := json.Unmarshal(b, &got); err != nil {
			return
		}
		if _, err := json.Marshal(&got); err != nil {
			t.Fatalf("decoded measurement does not encode: %v", err)
		}
	})
}
