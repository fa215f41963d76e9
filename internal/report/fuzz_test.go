package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// jsonString is what s becomes after a trip through encoding/json: each byte of
// invalid UTF-8 turns into U+FFFD.
func jsonString(s string) string { return string([]rune(s)) }

func FuzzRender(f *testing.F) {
	f.Add("Test TestParseEmpty was deleted.", "internal/parse/parse_test.go", "TestParseEmpty", 42, "")
	f.Add("expect(total).toEqual(107) | weakened\nto toBeDefined()", "web/src/cart.test.ts", "cart > totals > adds tax", 17, "")
	f.Add("`|| true` appended: npm test || true", ".github/workflows/ci.yml", "", 0, "")
	f.Add("Added // @ts-ignore, 100% sure: ok", "src/gen/client.ts", "", 3, "generated, see ADR-12")
	f.Add("Coverage fell from 81.25% to 78.50%", "", "", 0, "")
	f.Add("\x1b[31mred\x1b[0m\r\n%0A::set-output", `C:\repo\a b#1?.go`, "a`b``c|d", -5, "\xff\xfe")
	f.Add("", "../../etc/passwd", "@someone", 1, "")
	f.Fuzz(func(t *testing.T, msg, file, test string, line int, suppressed string) {
		rep := &gate.Report{
			Schema: gate.Schema, Tool: gate.Tool{Name: "ralph-gate", Version: "v0.0.0"},
			Base: shaBase, Head: shaC1,
			Commits: []gate.Commit{{SHA: shaC1, Subject: msg, Findings: 2}},
			Findings: []gate.Finding{
				{ID: "RG-TD-1", Type: gate.TestDeletion, Severity: gate.SeverityCritical, File: file, Line: line,
					Test: test, Commit: shaC1, Net: true, Message: msg, Evidence: gate.EvidenceStatic, Rule: "r", Suppressed: suppressed},
				{ID: "RG-ES-2", Type: gate.FindingType(test), Severity: gate.SeverityMedium, File: file, Symbol: msg,
					Net: true, Message: test, Evidence: gate.EvidenceStatic, Rule: msg},
				{ID: "RG-TS-3", Type: gate.TestSkipping, Severity: gate.SeverityHigh, File: file, Line: line,
					Commit: shaC1, Message: msg, Evidence: gate.EvidenceStatic, Rule: "s"},
			},
			Notes:   []gate.Note{{File: file, Message: msg}},
			FailOn:  gate.SeverityHigh,
			Verdict: gate.VerdictBlock,
		}
		outputs := make(map[Format][]byte)
		for _, format := range Formats {
			var buf bytes.Buffer
			if err := Render(&buf, format, rep, Options{RepoRoot: "/home/ci/repo"}); err != nil {
				t.Fatalf("Render(%s): %v", format, err)
			}
			outputs[format] = buf.Bytes()
		}

		var back gate.Report
		if err := json.Unmarshal(outputs[JSON], &back); err != nil {
			t.Fatalf("json output does not decode: %v\n%s", err, outputs[JSON])
		}
		want := jsonReport(rep)
		if diff := cmp.Diff(want, &back); diff != "" {
			t.Errorf("json round trip (-want +got):\n%s", diff)
		}

		checkSARIF(t, outputs[SARIF])

		if bytes.IndexByte(outputs[Text], 0x1b) >= 0 {
			t.Errorf("text without colour holds an escape byte:\n%q", outputs[Text])
		}
		if n := len(outputs[Markdown]); n > maxCommentBytes {
			t.Errorf("markdown is %d bytes", n)
		}
		// Two net findings, two annotations, one summary: nothing a message holds
		// can start another command.
		lines := strings.Split(strings.TrimSuffix(string(outputs[GitHub]), "\n"), "\n")
		if len(lines) != 3 || !strings.HasPrefix(lines[0], "::") || !strings.HasPrefix(lines[1], "::") || strings.HasPrefix(lines[2], "::") {
			t.Errorf("github output is not two commands and a summary:\n%s", outputs[GitHub])
		}
	})
}

// jsonReport is rep as the JSON format should carry it back.
func jsonReport(rep *gate.Report) *gate.Report {
	out := *rep
	out.Commits = append([]gate.Commit(nil), rep.Commits...)
	out.Findings = append([]gate.Finding(nil), rep.Findings...)
	out.Notes = append([]gate.Note(nil), rep.Notes...)
	for i := range out.Commits {
		out.Commits[i].Subject = jsonString(out.Commits[i].Subject)
	}
	for i := range out.Findings {
		f := &out.Findings[i]
		for _, s := range []*string{&f.File, &f.Test, &f.Symbol, &f.Message, &f.Rule, &f.Suppressed} {
			*s = jsonString(*s)
		}
		f.Type = gate.FindingType(jsonString(string(f.Type)))
	}
	for i := range out.Notes {
		out.Notes[i].File = jsonString(out.Notes[i].File)
		out.Notes[i].Message = jsonString(out.Notes[i].Message)
	}
	return &out
}
