package collectors

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func ev(action, pkg, test, output string) string {
	var b strings.Builder
	b.WriteString(`{"Action":"` + action + `","Package":"` + pkg + `"`)
	if test != "" {
		b.WriteString(`,"Test":"` + test + `"`)
	}
	if output != "" {
		b.WriteString(`,"Output":` + strconvQuote(output))
	}
	b.WriteString("}\n")
	return b.String()
}

func strconvQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`)
	return `"` + r.Replace(s) + `"`
}

func TestGoTestCases(t *testing.T) {
	long := strings.Repeat("x", 200<<10) // one output line of 200 KiB
	tests := []struct {
		name     string
		input    string
		want     map[string]string // id -> outcome
		messages map[string]string // id -> substring of the message
		builds   int
	}{
		{
			name: "subtests, skip and failure",
			input: ev("start", "p", "", "") + ev("run", "p", "TestA", "") + ev("run", "p", "TestA/x", "") +
				ev("output", "p", "TestA/x", "=== RUN   TestA/x\n") + ev("output", "p", "TestA/x", "    a_test.go:3: boom\n") +
				ev("fail", "p", "TestA/x", "") + ev("fail", "p", "TestA", "") +
				ev("run", "p", "TestB", "") + ev("output", "p", "TestB", "    b_test.go:9: later\n") + ev("skip", "p", "TestB", "") +
				ev("fail", "p", "", ""),
			want:     map[string]string{"p.TestA": "failed", "p.TestA/x": "failed", "p.TestB": "skipped"},
			messages: map[string]string{"p.TestA/x": "a_test.go:3: boom", "p.TestB": "b_test.go:9: later"},
		},
		{
			name: "long output lines and text mixed in",
			input: "# example.com/p\nsome stderr text\n" + ev("start", "p", "", "") + ev("run", "p", "TestLong", "") +
				ev("output", "p", "TestLong", long+"\n") + ev("fail", "p", "TestLong", "") + ev("fail", "p", "", ""),
			want:     map[string]string{"p.TestLong": "failed"},
			messages: map[string]string{"p.TestLong": "…[truncated]"},
		},
		{
			name: "crash leaves a test unfinished",
			input: ev("start", "p", "", "") + ev("run", "p", "TestCrash", "") + ev("output", "p", "TestCrash", "panic: boom\n") +
				ev("fail", "p", "", ""),
			want:     map[string]string{"p.TestCrash": "failed"},
			messages: map[string]string{"p.TestCrash": "test did not finish"},
		},
		{
			name: "missing subtest end under a passed test (golang/go#40771)",
			input: ev("start", "p", "", "") + ev("run", "p", "TestA", "") + ev("run", "p", "TestA/x", "") +
				ev("pass", "p", "TestA", "") + ev("pass", "p", "", ""),
			want: map[string]string{"p.TestA": "passed"},
		},
		{
			name:     "package failure without a failed test",
			input:    ev("start", "p", "", "") + ev("run", "p", "TestA", "") + ev("pass", "p", "TestA", "") + ev("output", "p", "", "TestMain: exit 1\n") + ev("fail", "p", "", ""),
			want:     map[string]string{"p.TestA": "passed", "p.TestMain": "failed"},
			messages: map[string]string{"p.TestMain": "TestMain: exit 1"},
		},
		{
			name: "build failure, Go before 1.24 (text on stderr, FailedBuild only)",
			input: "# q\n./q.go:3:1: syntax error\n" + ev("start", "q", "", "") + ev("output", "q", "", "FAIL\tq [build failed]\n") +
				`{"Action":"fail","Package":"q","FailedBuild":"q [q.test]"}` + "\n",
			want:     map[string]string{"q.TestMain": "failed"},
			messages: map[string]string{"q.TestMain": "build failed: q [q.test]"},
			builds:   1,
		},
		{
			name:     "build-fail with no package event",
			input:    `{"ImportPath":"r","Action":"build-output","Output":"r.go:1: bad\n"}` + "\n" + `{"ImportPath":"r","Action":"build-fail"}` + "\n",
			want:     map[string]string{"r.TestMain": "failed"},
			messages: map[string]string{"r.TestMain": "r.go:1: bad"},
			builds:   1,
		},
		{
			name:  "no test files",
			input: ev("start", "p", "", "") + ev("output", "p", "", "?   \tp\t[no test files]\n") + ev("skip", "p", "", ""),
			want:  map[string]string{},
		},
		{
			name: "two runs concatenated (-count or retries)",
			input: ev("start", "p", "", "") + ev("run", "p", "TestA", "") + ev("fail", "p", "TestA", "") + ev("fail", "p", "", "") +
				ev("start", "p", "", "") + ev("run", "p", "TestA", "") + ev("pass", "p", "TestA", "") + ev("pass", "p", "", ""),
			want: map[string]string{"p.TestA": "failed (flaky)"},
		},
		{
			name:  "unknown actions are ignored",
			input: ev("start", "p", "", "") + ev("run", "p", "TestA", "") + ev("attr", "p", "TestA", "") + ev("pass", "p", "TestA", "") + ev("pass", "p", "", ""),
			want:  map[string]string{"p.TestA": "passed"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := mustParse(t, GoTest{}, tc.input)
			s := summarize(r)
			if diff := cmp.Diff(tc.want, s.Outcomes); diff != "" {
				t.Errorf("outcomes (-want +got):\n%s", diff)
			}
			for id, sub := range tc.messages {
				got, _ := r.Tests.Get(id)
				if !strings.Contains(got.Message, sub) || len(got.Message) > MaxMessageBytes {
					t.Errorf("message of %s = %q, want it to contain %q within %d bytes", id, got.Message, sub, MaxMessageBytes)
				}
			}
			if len(r.BuildFailures) != tc.builds {
				t.Errorf("build failures = %+v, want %d", r.BuildFailures, tc.builds)
			}
		})
	}
}

// A stream that ends while a package's test runs (the binary exited in
// the middle of it) is a measurement: the running test fails as not
// finished and the package's evidence is recorded as not adding up, never
// a parse error that would lose the rest of the report.
func TestGoTestEndedEarly(t *testing.T) {
	in := `{"Action":"start","Package":"p"}` + "\n" + `{"Action":"run","Package":"p","Test":"TestA"}` + "\n" +
		`{"Action":"start","Package":"q"}` + "\n" + `{"Action":"run","Package":"q","Test":"TestB"}` + "\n" +
		`{"Action":"pass","Package":"q","Test":"TestB"}` + "\n" + `{"Action":"pass","Package":"q"}` + "\n"
	r, err := GoTest{}.Parse("in.json", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := r.Tests.Get("p.TestA"); !ok || a.Outcome != Failed || !strings.HasPrefix(a.Message, "test did not finish") {
		t.Errorf("p.TestA = %+v, want failed as not finished", a)
	}
	if len(r.Integrity) != 1 || r.Integrity[0].Package != "p" || !strings.Contains(r.Integrity[0].Problem, "exited early") || !strings.Contains(r.Integrity[0].Problem, "TestA") {
		t.Errorf("Integrity = %+v, want p exited early after TestA", r.Integrity)
	}
	if b, ok := r.Tests.Get("q.TestB"); !ok || b.Outcome != Passed {
		t.Errorf("q.TestB = %+v, want passed", b)
	}
}
