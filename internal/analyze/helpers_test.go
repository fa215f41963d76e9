package analyze

import (
	"strings"
	"testing"

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

func run(files ...FileChange) []gate.Finding {
	return New(nil).Analyze(Change{Commit: "c0ffee", Files: files})
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
