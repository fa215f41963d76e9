package collectors

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSARIFLevels(t *testing.T) {
	input := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"CodeQL","rules":[
	  {"id":"js/sql","defaultConfiguration":{"level":"error"}},
	  {"id":"js/note","defaultConfiguration":{"level":"note"}},
	  {"id":"js/plain"}]},
	  "extensions":[{"name":"pack","rules":[{"id":"ext/r","defaultConfiguration":{"level":"error"}}]}]},
	 "results":[
	  {"ruleId":"js/sql","ruleIndex":0},
	  {"ruleId":"js/sql"},
	  {"rule":{"index":1}},
	  {"ruleId":"js/plain"},
	  {"ruleId":"unknown"},
	  {"ruleId":"js/sql","level":"warning"},
	  {"ruleId":"js/sql","kind":"pass"},
	  {"ruleId":"js/sql","kind":"review"},
	  {"rule":{"id":"ext/r","index":0,"toolComponent":{"index":0}}},
	  {"ruleId":"js/sql","suppressions":[{"kind":"inSource"}]},
	  {"ruleId":"js/sql","suppressions":[{"kind":"external","status":"accepted"}]},
	  {"ruleId":"js/sql","suppressions":[{"kind":"external","status":"underReview"}]},
	  {"ruleId":"js/sql","suppressions":[{"kind":"inSource"},{"kind":"external","status":"rejected"}]},
	  {"ruleId":"js/sql","suppressions":[]}
	 ]},
	 {"tool":{"driver":{"name":"ruff"}},"results":[{"ruleId":"F401","level":"error"}],
	  "invocations":[{"executionSuccessful":true,"toolExecutionNotifications":[{"level":"warning"},{"level":"error","descriptor":{"id":"E902"}}]}]}]}`
	r := mustParse(t, SARIF{}, input)
	want := &Diagnostics{Errors: 8, Warnings: 3, Rules: map[string]RuleCount{
		"js/sql":   {Errors: 5, Warnings: 1},
		"js/plain": {Warnings: 1},
		"unknown":  {Warnings: 1},
		"ext/r":    {Errors: 1},
		"F401":     {Errors: 1},
		"E902":     {Errors: 1},
	}}
	if diff := cmp.Diff(want, r.Lint); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

func TestTSCCases(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  *Diagnostics
	}{
		{"empty output is zero errors", "", &Diagnostics{}},
		{"plain with chain", "src/a.ts(1,2): error TS2322: Type 'x'.\n  Type 'y'.\nsrc/b.ts(3,4): warning TS6133: unused.\n", &Diagnostics{Errors: 1, Warnings: 1, Rules: map[string]RuleCount{"TS2322": {Errors: 1}, "TS6133": {Warnings: 1}}}},
		{"pretty with colours and summary", "\x1b[96msrc/a.ts\x1b[0m:\x1b[93m1\x1b[0m:\x1b[93m2\x1b[0m - \x1b[91merror\x1b[0m\x1b[90m TS2322: \x1b[0mType.\n\n\x1b[7m1\x1b[0m const x: number = \"a\";\n\nFound 1 error in src/a.ts\x1b[90m:1\x1b[0m\n\n", &Diagnostics{Errors: 1, Rules: map[string]RuleCount{"TS2322": {Errors: 1}}}},
		{"build mode, several summaries", "a.ts(1,1): error TS1: x\nFound 1 error.\nb.ts(1,1): error TS2: y\nc.ts(1,1): error TS2: y\nFound 2 errors in 2 files.\n", &Diagnostics{Errors: 3, Rules: map[string]RuleCount{"TS1": {Errors: 1}, "TS2": {Errors: 2}}}},
		{"messages and suggestions are not counted", "a.ts(1,1): message TS6194: Found 0 errors. Watching.\n", &Diagnostics{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := mustParse(t, TSC{}, tc.input)
			if diff := cmp.Diff(tc.want, r.TypeCheck); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if r.Lint != nil {
				t.Error("tsc measured lint")
			}
		})
	}
}

func TestGolangCISeverities(t *testing.T) {
	r := mustParse(t, GolangCI{}, `{"Issues":[{"FromLinter":"a"},{"FromLinter":"a","Severity":"warning"},{"FromLinter":"b","Severity":"info"},{"FromLinter":"b","Severity":"high"}],"Report":{}}`)
	want := &Diagnostics{Errors: 2, Warnings: 1, Rules: map[string]RuleCount{"a": {Errors: 1, Warnings: 1}, "b": {Errors: 1}}}
	if diff := cmp.Diff(want, r.Lint); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	none := mustParse(t, GolangCI{}, `{"Issues":null}`)
	if none.Lint == nil || none.Lint.Errors != 0 {
		t.Errorf("no issues = %+v, want zero measured", none.Lint)
	}
}
