package collectors

import (
	"errors"
	"strings"
	"testing"
)

// TestMalformed feeds every parser broken and truncated reports: each must
// fail with a *ParseError that names the format, the file and the problem.
func TestMalformed(t *testing.T) {
	tests := []struct {
		format, name, input, want string
	}{
		{"gotest", "empty", "", "no test events"},
		{"gotest", "text only", "go: cannot find main module\n", "no test events; output: go: cannot find main module"},
		{"gotest", "truncated event", `{"Action":"start","Package":"p"}` + "\n" + `{"Action":"run","Pack`, "line 2: bad event: truncated event"},
		{"gotest", "no action", `{"Package":"p"}`, "line 1: event without an Action"},
		{"gotest", "event after end", `{"Action":"start","Package":"p"}` + "\n" + `{"Action":"pass","Package":"p"}` + "\n" + `{"Action":"run","Package":"p","Test":"TestA"}`, "line 3: run event after package p finished"},
		{"junit", "empty", "", "empty document"},
		{"junit", "wrong root", "<testrun/>", "line 1: root element is <testrun>, want <testsuites> or <testsuite>"},
		{"junit", "truncated", "<testsuites>\n<testsuite name=\"s\">\n<testcase name=\"a\">\n<failure>boom", "unexpected EOF inside <failure>"},
		{"junit", "truncated in case", "<testsuites>\n<testsuite name=\"s\">\n<testcase name=\"a\">\n", "line 4: unexpected EOF inside <testcase>"},
		{"junit", "mismatched end", "<testsuites><testsuite></testcase></testsuites>", "line 1: unexpected </testcase> inside <testsuite>"},
		{"junit", "no name", `<testsuite><testcase classname="c"/></testsuite>`, "<testcase> without a name attribute"},
		{"junit", "second root", "<testsuite></testsuite><testsuite></testsuite>", "unexpected <testsuite> after the root element"},
		{"junit", "text outside", "<testsuite></testsuite>junk", "text outside the root element"},
		{"coverprofile", "empty", "", "empty profile"},
		{"coverprofile", "no mode", "a.go:1.1,2.2 1 1\n", "line 1: missing mode line"},
		{"coverprofile", "bad mode", "mode: sometimes\n", "line 1: unknown mode \"sometimes\""},
		{"coverprofile", "bad block", "mode: set\na.go:1.1,2.2 one 1\n", "line 2: bad block"},
		{"coverprofile", "truncated block", "mode: set\na.go:1.1,2.2 1 1\na.go:3.1,4", "line 3: truncated block"},
		{"coverprofile", "modes differ", "mode: set\na.go:1.1,2.2 1 1\nmode: count\n", "line 3: mode count differs from the earlier mode set"},
		{"coverprofile", "inconsistent", "mode: set\na.go:1.1,2.2 1 1\na.go:1.1,2.2 2 1\n", "line 3: inconsistent statement count"},
		{"lcov", "empty", "", "no SF ... end_of_record records"},
		{"lcov", "truncated", "SF:a.js\nDA:1,1\nDA:2", "line 3: DA: want line,count"},
		{"lcov", "no end", "SF:a.js\nDA:1,1\n", "line 2: input ends inside the record of a.js opened on line 1"},
		{"lcov", "record outside", "DA:1,1\n", "line 1: DA record outside SF"},
		{"lcov", "nested SF", "SF:a.js\nSF:b.js\n", "line 2: SF:b.js inside the record of a.js"},
		{"lcov", "garbage", "SF:a.js\nhello world\n", "line 2: unexpected line \"hello world\""},
		{"lcov", "negative", "SF:a.js\nDA:1,-1\nend_of_record\n", "line 2: DA: count \"-1\" is not a non-negative integer"},
		{"lcov", "stray end", "end_of_record\n", "line 1: end_of_record without SF"},
		{"lcov", "short BRDA", "SF:a.js\nBRDA:1,0,1\nend_of_record\n", "line 2: BRDA: want line,block,branch,taken"},
		{"lcov", "bad taken", "SF:a.js\nBRDA:1,0,0,yes\nend_of_record\n", "line 2: BRDA: taken \"yes\" is not a non-negative integer"},
		{"lcov", "bad BRF", "SF:a.js\nBRF:x\nend_of_record\n", "line 2: BRF: count \"x\" is not a non-negative integer"},
		{"cobertura", "wrong root", "<coverage2/>", "root element is <coverage2>"},
		{"cobertura", "bad rate", `<coverage line-rate="high"/>`, "line-rate \"high\" is not a number between 0 and 1"},
		{"cobertura", "truncated", "<coverage line-rate=\"1\">\n<packages>\n<package>", "line 3: unexpected EOF inside <package>"},
		{"cobertura", "no filename", `<coverage><packages><package><classes><class name="x"/></classes></package></packages></coverage>`, "<class> without a filename attribute"},
		{"cobertura", "line outside", `<coverage><lines><line number="1" hits="1"/></lines></coverage>`, "<line> outside <class><lines>"},
		{"cobertura", "bad condition-coverage", `<coverage><packages><package><classes><class filename="a"><lines><line number="1" hits="1" branch="true" condition-coverage="50%"/></lines></class></classes></package></packages></coverage>`, "<line> condition-coverage \"50%\": want \"P% (covered/valid)\""},
		{"cobertura", "more covered than valid", `<coverage><packages><package><classes><class filename="a"><lines><line number="1" hits="1" condition-coverage="150% (3/2)"/></lines></class></classes></package></packages></coverage>`, "3 of 2 conditions covered"},
		{"cobertura", "bad branch rate with branch data", `<coverage branch-rate="2" branches-valid="2"><packages><package><classes><class filename="a"><lines><line number="1" hits="1" condition-coverage="50% (1/2)"/></lines></class></classes></package></packages></coverage>`, "branch-rate \"2\" is not a number between 0 and 1"},
		{"cobertura", "bad hits", `<coverage><packages><package><classes><class filename="a"><lines><line number="1" hits="x"/></lines></class></classes></package></packages></coverage>`, "<line> hits \"x\" is not a non-negative integer"},
		{"sarif", "empty", "", "unexpected end of input in SARIF log"},
		{"sarif", "not an object", "[]", "offset 1: SARIF log: got \"[\", want \"{\""},
		{"sarif", "version", `{"version":"2.0.0","runs":[]}`, "version \"2.0.0\", want \"2.1.0\""},
		{"sarif", "no version", `{"runs":[]}`, "no version"},
		{"sarif", "no runs", `{"version":"2.1.0"}`, "no runs"},
		{"sarif", "truncated", `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"a"`, "unexpected end of input in runs[0] (truncated?)"},
		{"sarif", "null results", `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"ruff"}},"results":null}]}`, "runs[0]: results are null or absent: ruff did not analyse anything"},
		{"sarif", "bad level", `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"level":"fatal"}]}]}`, "results[0]: level \"fatal\""},
		{"sarif", "bad rule index", `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleIndex":3}]}]}`, "rule index 3 out of range (0 rules)"},
		{"sarif", "trailing", `{"version":"2.1.0","runs":[]} {}`, "unexpected data after the document"},
		{"checkstyle", "wrong root", "<pmd/>", "root element is <pmd>, want <checkstyle>"},
		{"checkstyle", "error outside file", `<checkstyle><error severity="error"/></checkstyle>`, "<error> outside <file>"},
		{"checkstyle", "bad severity", `<checkstyle><file name="a"><error severity="fatal"/></file></checkstyle>`, "severity \"fatal\""},
		{"checkstyle", "truncated", "<checkstyle>\n<file name=\"a\">\n<error severity=\"error\"", "line 3: unexpected EOF"},
		{"eslint", "empty", "", "unexpected end of input in eslint results"},
		{"eslint", "object", `{"filePath":"a"}`, "eslint results: got \"{\", want \"[\""},
		{"eslint", "truncated", `[{"filePath":"/a.js","messages":[{"ruleId":"x","severity":2}`, "unexpected end of input in results[0]"},
		{"eslint", "wrong type", `[{"filePath":"/a.js","messages":"none"}]`, "results[0]: messages is a JSON string"},
		{"eslint", "bad severity", `[{"filePath":"/a.js","messages":[{"ruleId":"x","severity":3}]}]`, "messages[0] has severity 3"},
		{"eslint", "counts disagree", `[{"filePath":"/a.js","messages":[{"ruleId":"x","severity":2}],"errorCount":2,"warningCount":0}]`, "errorCount 2 and warningCount 0 disagree with its messages (1 errors, 0 warnings)"},
		{"eslint", "no file path", `[{"messages":[]}]`, "results[0]: no filePath"},
		{"golangci", "empty", "", "unexpected end of input"},
		{"golangci", "not golangci", `{"version":"2.1.0"}`, "no Issues field"},
		{"golangci", "truncated", `{"Issues":[{"FromLinter":"errcheck"`, "unexpected end of input in Issues"},
		{"golangci", "run failed", `{"Issues":[],"Report":{"Error":"can't load config"}}`, "golangci-lint reports that the run failed: can't load config"},
		{"golangci", "no linter", `{"Issues":[{"Text":"x"}]}`, "Issues[0] has no FromLinter"},
		{"tsc", "summary disagrees", "a.ts(1,1): error TS1005: ';' expected.\nFound 2 errors in the same file, starting at: a.ts:1\n", "line 2: summary says 2 errors but 1 error diagnostics precede it"},
	}
	for _, tc := range tests {
		t.Run(tc.format+"/"+tc.name, func(t *testing.T) {
			p, err := New(tc.format)
			if err != nil {
				t.Fatal(err)
			}
			r, err := p.Parse("reports/in.file", strings.NewReader(tc.input))
			if err == nil {
				t.Fatalf("Parse succeeded with %+v, want an error containing %q", r, tc.want)
			}
			if r != nil {
				t.Errorf("Parse returned a result with its error")
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T %v is not a *ParseError", err, err)
			}
			prefix := "parse " + tc.format + " reports/in.file: "
			if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tc.want) {
				t.Errorf("error = %q, want %q...%q", msg, prefix, tc.want)
			}
		})
	}
}
