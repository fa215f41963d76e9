package analyze

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

func mod(p, old, new string) FileChange {
	return FileChange{OldPath: p, NewPath: p, Old: []byte(old), New: []byte(new)}
}

func add(p, new string) FileChange { return FileChange{NewPath: p, New: []byte(new)} }

func del(p, old string) FileChange { return FileChange{OldPath: p, Old: []byte(old)} }

func mv(from, to, old, new string) FileChange {
	return FileChange{OldPath: from, NewPath: to, Old: []byte(old), New: []byte(new)}
}

// run analyzes one change. Every case also checks the masked analysis (see
// Analyzer.MaskUnchanged), with masks of any size allowed: it must report
// exactly what the whole-file analysis reports.
func run(files ...FileChange) []gate.Finding {
	return runChange(Change{Commit: "c0ffee", Files: files})
}

// runChange is run for a change with its callbacks.
func runChange(ch Change) []gate.Finding {
	fs := New(nil).Analyze(ch)
	masked := New(nil)
	masked.MaskUnchanged()
	masked.maskMin = 0
	if diff := cmp.Diff(fs, masked.Analyze(ch)); diff != "" {
		maskMismatch = append(maskMismatch, fmt.Sprintf("%s: masked analysis differs (-whole +masked):\n%s", changedPaths(ch.Files), diff))
	}
	return fs
}

// maskMismatch collects the cases whose masked analysis differed; TestMain
// fails the run when there are any.
var maskMismatch []string

func changedPaths(files []FileChange) string {
	var ps []string
	for _, f := range files {
		ps = append(ps, f.OldPath+"->"+f.NewPath)
	}
	return strings.Join(ps, ", ")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if len(maskMismatch) > 0 {
		for _, s := range maskMismatch {
			fmt.Fprintln(os.Stderr, s)
		}
		fmt.Fprintf(os.Stderr, "FAIL: %d changes analyzed differently with masking\n", len(maskMismatch))
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

func dump(fs []gate.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("\n  " + f.Severity.String() + " " + string(f.Type) + " " + f.Rule + " " + f.File + " test=" + f.Test + " sym=" + f.Symbol + ": " + f.Message)
	}
	return b.String()
}

// expectFinding asserts that a finding of the type names the file and the test.
func expectFinding(t *testing.T, fs []gate.Finding, typ gate.FindingType, minSev gate.Severity, file, test string) {
	t.Helper()
	for _, f := range fs {
		if f.Type == typ && f.File == file && (test == "" || f.Test == test) && f.Severity >= minSev {
			if f.ID == "" || f.Message == "" || f.Rule == "" {
				t.Errorf("finding lacks id, message or rule: %+v", f)
			}
			return
		}
	}
	t.Errorf("want %s (>= %s) in %s for test %q; got:%s", typ, minSev, file, test, dump(fs))
}

// expectNoHigh asserts that no finding is high or critical.
func expectNoHigh(t *testing.T, fs []gate.Finding) {
	t.Helper()
	for _, f := range fs {
		if f.Severity >= gate.SeverityHigh {
			t.Errorf("legitimate change raised a %s finding:%s", f.Severity, dump(fs))
			return
		}
	}
}
