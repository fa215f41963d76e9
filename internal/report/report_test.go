package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

func TestParseFormat(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    Format
		wantErr string
	}{
		{name: "text", in: "text", want: Text},
		{name: "json", in: "json", want: JSON},
		{name: "markdown", in: "markdown", want: Markdown},
		{name: "sarif upper case and spaces", in: " SARIF ", want: SARIF},
		{name: "github", in: "github", want: GitHub},
		{name: "codeclimate", in: "CodeClimate", want: CodeClimate},
		{name: "rdjson", in: "rdjson", want: RDJSON},
		{name: "unknown", in: "xml", wantErr: `unknown format "xml" (want text, json, markdown, sarif, github, codeclimate or rdjson)`},
		{name: "empty", in: "", wantErr: `unknown format "" (want text, json, markdown, sarif, github, codeclimate or rdjson)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseFormat(tc.in)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("ParseFormat(%q) error = %v, want %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("ParseFormat(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestRenderErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := Render(&buf, Format("xml"), emptyReport(), Options{}); err == nil || !strings.Contains(err.Error(), `unknown format "xml"`) {
		t.Errorf("unknown format: err = %v", err)
	}
	if err := Render(&buf, Text, nil, Options{}); err == nil {
		t.Error("nil report: no error")
	}
	for _, f := range Formats {
		t.Run(string(f), func(t *testing.T) {
			err := Render(failingWriter{}, f, fullReport(), Options{})
			if !errors.Is(err, errDiskFull) {
				t.Errorf("write error not returned: %v", err)
			}
		})
	}
}

var errDiskFull = errors.New("disk full")

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errDiskFull }

func render(t *testing.T, f Format, rep *gate.Report, opt Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Render(&buf, f, rep, opt); err != nil {
		t.Fatalf("Render(%s): %v", f, err)
	}
	return buf.Bytes()
}

var extensions = map[Format]string{Text: "txt", JSON: "json", Markdown: "md", SARIF: "sarif", GitHub: "github.txt", CodeClimate: "codeclimate.json", RDJSON: "rdjson"}

func TestRenderGolden(t *testing.T) {
	reports := []struct {
		name string
		rep  func() *gate.Report
	}{
		{name: "full", rep: fullReport},
		{name: "warn", rep: warnReport},
		{name: "empty", rep: emptyReport},
	}
	for _, r := range reports {
		for _, f := range Formats {
			t.Run(r.name+"/"+string(f), func(t *testing.T) {
				golden(t, r.name+"."+extensions[f], render(t, f, r.rep(), Options{}))
			})
		}
	}
	t.Run("full/text color verbose", func(t *testing.T) {
		golden(t, "full.color-verbose.txt", render(t, Text, fullReport(), Options{Color: true, Verbose: true}))
	})
}

func TestRenderDoesNotChangeReport(t *testing.T) {
	for _, f := range Formats {
		t.Run(string(f), func(t *testing.T) {
			rep := fullReport()
			render(t, f, rep, Options{Color: true, Verbose: true})
			if diff := cmp.Diff(fullReport(), rep); diff != "" {
				t.Errorf("report changed (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEmptyReportPasses(t *testing.T) {
	tests := []struct {
		format Format
		want   []string
	}{
		{format: Text, want: []string{"ralph-gate: 9c4e2b7..1f3a5c7, 0 commits\n", "\nPASS: no findings\n"}},
		{format: JSON, want: []string{`"commits": [],`, `"findings": [],`, `"verdict": "pass"`}},
		{format: Markdown, want: []string{"## ralph-gate: PASS: no findings\n", "no findings."}},
		{format: SARIF, want: []string{`"results": []`, `"verdict": "pass"`}},
		{format: GitHub, want: []string{"ralph-gate: PASS: no findings\n"}},
	}
	for _, tc := range tests {
		t.Run(string(tc.format), func(t *testing.T) {
			got := string(render(t, tc.format, emptyReport(), Options{}))
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q:\n%s", w, got)
				}
			}
			if tc.format == GitHub && got != "ralph-gate: PASS: no findings\n" {
				t.Errorf("github output = %q, want the summary line only", got)
			}
		})
	}
}

func TestVerdictLine(t *testing.T) {
	high := gate.SeverityHigh
	tests := []struct {
		name     string
		findings []gate.Finding
		verdict  gate.Verdict
		failOn   gate.Severity
		want     string
	}{
		{name: "block", verdict: gate.VerdictBlock, failOn: high, findings: []gate.Finding{
			{Severity: gate.SeverityCritical, Net: true}, {Severity: high, Net: true}, {Severity: gate.SeverityLow, Net: true},
		}, want: "BLOCK: 2 net findings at or above high"},
		{name: "warn", verdict: gate.VerdictWarn, failOn: high, findings: []gate.Finding{{Severity: gate.SeverityMedium, Net: true}},
			want: "WARN: 1 net finding, none at or above high"},
		{name: "warn fail-on none", verdict: gate.VerdictWarn, failOn: gate.SeverityNone, findings: []gate.Finding{{Severity: gate.SeverityCritical, Net: true}},
			want: "WARN: 1 net finding, none blocks (fail-on none)"},
		{name: "pass", verdict: gate.VerdictPass, failOn: high, want: "PASS: no findings"},
		{name: "pass with transient and suppressed", verdict: gate.VerdictPass, failOn: high, findings: []gate.Finding{
			{Severity: gate.SeverityCritical}, {Severity: high, Net: true, Suppressed: "ok"},
		}, want: "PASS: no net findings (1 transient, 1 suppressed, not blocking)"},
		{name: "empty verdict decided from findings", failOn: gate.SeverityMedium, findings: []gate.Finding{{Severity: gate.SeverityMedium, Net: true}},
			want: "BLOCK: 1 net finding at or above medium"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := newView(&gate.Report{Findings: tc.findings, Verdict: tc.verdict, FailOn: tc.failOn})
			if got := v.verdictLine(); got != tc.want {
				t.Errorf("verdictLine() = %q, want %q", got, tc.want)
			}
		})
	}
}

// hostileReport carries terminal escapes and control characters everywhere a
// string can go.
func hostileReport() *gate.Report {
	rep := fullReport()
	rep.Commits[0].Subject = "\x1b[2J\x1b]0;pwned\x07 clear screen"
	rep.Commits[1].SHA = "\x1b[31m" + rep.Commits[1].SHA
	rep.Findings[0].Message = "red \x1b[31mtext\x1b[0m and a bell \a"
	rep.Findings[1].File = "web/\x1bsrc/cart.test.ts"
	rep.Findings[1].Test = "cart \x9b> totals"
	rep.Findings[3].Suppressed = "\x1b[1mbold reason"
	rep.Findings[4].ID = "\x1b[0m"
	rep.Notes = append(rep.Notes, gate.Note{File: "a\x1b.bin", Message: "\x1b[K erased"})
	rep.Base = "\x1b" + rep.Base
	rep.ChangedLineCoverage.Files[0].File = "src/\x1b[2Jca|rt`.ts"
	rep.ChangedLineCoverage.Unmeasured = []string{"\x1b]0;x\x07new.ts"}
	return rep
}

func TestTextNoEscapeWithoutColor(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		got := render(t, Text, hostileReport(), Options{Verbose: verbose})
		if i := bytes.IndexByte(got, 0x1b); i >= 0 {
			t.Errorf("verbose=%v: escape byte at %d in:\n%s", verbose, i, got)
		}
		if bytes.Contains(got, []byte{0x9b}) || bytes.Contains(got, []byte{0x07}) {
			t.Errorf("verbose=%v: raw C1 or BEL byte in output", verbose)
		}
	}
	colored := render(t, Text, fullReport(), Options{Color: true})
	if !bytes.Contains(colored, []byte(ansiRed+"BLOCK:")) {
		t.Errorf("Color=true: verdict not painted red:\n%s", colored)
	}
}
