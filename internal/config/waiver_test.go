package config

import (
	"strings"
	"testing"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

func at(t *testing.T, day string) {
	t.Helper()
	d, err := time.Parse(time.DateOnly, day)
	if err != nil {
		t.Fatal(err)
	}
	old := Now
	Now = func() time.Time { return d.Add(23 * time.Hour) } // late in the day, UTC
	t.Cleanup(func() { Now = old })
}

const waiverConfig = `waivers:
  - id: RG-TD-0123456789ab
    reason: "TestOld is covered by TestNew (#42)"
    by: alice
    expires: 2026-12-01
  - type: test_skipping
    path: "legacy/**"
    reason: legacy module frozen
    by: bob
    expires: 2026-11-20
`

func TestWaivers(t *testing.T) {
	c, err := Parse("test", []byte(waiverConfig))
	if err != nil {
		t.Fatal(err)
	}
	deleted := gate.Finding{ID: "RG-TD-0123456789ab", Type: gate.TestDeletion, Severity: gate.SeverityCritical, File: "a_test.go", Net: true}
	other := gate.Finding{ID: "RG-TD-ba9876543210", Type: gate.TestDeletion, Severity: gate.SeverityCritical, File: "a_test.go", Net: true}
	skipped := gate.Finding{ID: "RG-TS-111111111111", Type: gate.TestSkipping, Severity: gate.SeverityHigh, File: "legacy/x/y_test.go", Net: true}
	skippedElsewhere := gate.Finding{ID: "RG-TS-222222222222", Type: gate.TestSkipping, Severity: gate.SeverityHigh, File: "core/y_test.go", Net: true}

	at(t, "2026-11-20") // the second waiver's last day
	fs := []gate.Finding{deleted, other, skipped, skippedElsewhere}
	c.Apply(fs)
	for i, want := range []bool{true, false, true, false} {
		if fs[i].Waived != want || (fs[i].Suppressed != "") != want {
			t.Errorf("finding %d (%s in %s): waived %v %q, want %v", i, fs[i].ID, fs[i].File, fs[i].Waived, fs[i].Suppressed, want)
		}
	}
	if want := "waived by alice until 2026-12-01: TestOld is covered by TestNew (#42)"; fs[0].Suppressed != want {
		t.Errorf("suppressed = %q, want %q", fs[0].Suppressed, want)
	}
	if got := gate.Decide(fs[:1], gate.FailOn(gate.SeverityHigh)); got == gate.VerdictBlock {
		t.Errorf("a waived critical finding blocks")
	}
	if exp := c.ExpiredWaivers(); len(exp) != 0 {
		t.Errorf("on its last day a waiver expired: %+v", exp)
	}

	at(t, "2026-11-21") // the day after
	fs = []gate.Finding{deleted, skipped}
	c.Apply(fs)
	if !fs[0].Waived || fs[1].Waived {
		t.Errorf("the day after the second waiver's expiry: waived %v, %v; want true, false", fs[0].Waived, fs[1].Waived)
	}
	exp := c.ExpiredWaivers()
	if len(exp) != 1 || exp[0].Type != gate.ValidationBypass || exp[0].Rule != "waiver-expired" || exp[0].File != FileName || exp[0].Line != 6 ||
		!strings.Contains(exp[0].Message, "test_skipping in legacy/**") || !strings.Contains(exp[0].Message, "expired on 2026-11-20") {
		t.Errorf("expired waivers = %+v, want one for test_skipping in legacy/** at line 6", exp)
	}
}

// TestWaiverAndException: a sanctioned exception's reason stays when a
// waiver names the same finding.
func TestWaiverAndException(t *testing.T) {
	c, err := Parse("test", []byte(waiverConfig+"exceptions:\n  - type: test_deletion\n    reason: generated tests\n"))
	if err != nil {
		t.Fatal(err)
	}
	at(t, "2026-11-01")
	fs := []gate.Finding{{ID: "RG-TD-0123456789ab", Type: gate.TestDeletion, Net: true}}
	c.Apply(fs)
	if fs[0].Suppressed != "generated tests" || fs[0].Waived {
		t.Errorf("got %q waived=%v, want the exception's reason", fs[0].Suppressed, fs[0].Waived)
	}
}

func TestWaiverErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"waivers:\n  - id: RG-TD-0123456789ab\n    by: a\n    expires: 2026-12-01\n", "line 2: waiver: a waiver needs a reason"},
		{"waivers:\n  - id: RG-TD-0123456789ab\n    reason: r\n    expires: 2026-12-01\n", "line 2: waiver: a waiver needs by"},
		{"waivers:\n  - id: RG-TD-0123456789ab\n    reason: r\n    by: a\n", "expires must be a date"},
		{"waivers:\n  - id: RG-TD-0123456789ab\n    reason: r\n    by: a\n    expires: 12/01/2026\n", "expires must be a date (YYYY-MM-DD), not \"12/01/2026\""},
		{"waivers:\n  - id: TestOld\n    reason: r\n    by: a\n    expires: 2026-12-01\n", "\"TestOld\" is not a finding id"},
		{"waivers:\n  - reason: r\n    by: a\n    expires: 2026-12-01\n", "give the finding's id, or its type"},
		{"waivers:\n  - id: RG-TD-0123456789ab\n    type: test_deletion\n    reason: r\n    by: a\n    expires: 2026-12-01\n", "not both"},
		{"waivers:\n  - type: test_gone\n    reason: r\n    by: a\n    expires: 2026-12-01\n", "unknown finding type \"test_gone\""},
		{"waivers:\n  - type: test_deletion\n    path: \"[\"\n    reason: r\n    by: a\n    expires: 2026-12-01\n", "bad path glob"},
		{"waivers:\n  - id: RG-TD-0123456789ab\n    reason: r\n    by: a\n    expires: 2026-12-01\n    until: x\n", "until"},
	} {
		_, err := Parse(".ralph-gate.yml at BASE", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), ".ralph-gate.yml at BASE") {
			t.Errorf("%q: error %v, want one naming the file and saying %q", c.yaml, err, c.want)
		}
	}
}

func TestWaiverYAML(t *testing.T) {
	at(t, "2026-11-26")
	y, err := WaiverYAML("RG-TD-0123456789ab", "covered by \"TestNew\"", "alice", 14)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse("printed", []byte(y))
	if err != nil {
		t.Fatalf("the printed waiver does not parse: %v\n%s", err, y)
	}
	if len(c.Waivers) != 1 || c.Waivers[0].Expires != "2026-12-10" || c.Waivers[0].Reason != "covered by \"TestNew\"" || c.Waivers[0].By != "alice" {
		t.Errorf("printed %s, parsed %+v", y, c.Waivers)
	}
	for _, bad := range []struct {
		id, reason, by string
		days           int
	}{{"RG-TD-0123456789ab", "", "a", 1}, {"RG-TD-0123456789ab", "r", "", 1}, {"x", "r", "a", 1}, {"RG-TD-0123456789ab", "r", "a", 0}, {"RG-TD-0123456789ab", "r", "a", 367}} {
		if _, err := WaiverYAML(bad.id, bad.reason, bad.by, bad.days); err == nil {
			t.Errorf("WaiverYAML(%+v) printed a waiver", bad)
		}
	}
}
