package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

func TestGroupDeletedFile(t *testing.T) {
	var fs []gate.Finding
	for i := range 150 {
		name := fmt.Sprintf("TestCase%03d", i)
		f := gate.NewFinding(gate.RuleTestDeleted, gate.SeverityCritical, "big_test.go", 10+i, name, "", "",
			"test "+name+" was deleted together with its file big_test.go.")
		f.Net, f.Commit = true, "c1"
		fs = append(fs, f)
	}
	other := gate.NewFinding(gate.RuleTestDeleted, gate.SeverityCritical, "calc_test.go", 3, "TestMul", "", "", "test TestMul was deleted from calc_test.go and not renamed or moved.")
	other.Net, other.Commit = true, "c1"
	fs = append(fs, other, other) // an exact duplicate is printed once
	got := Group(fs)
	if len(got) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(got), got)
	}
	g := got[0]
	if g.Rule != "test-file-deleted" || g.Severity != gate.SeverityCritical || len(g.Tests) != 150 || g.Test != "" || !g.Net ||
		!strings.Contains(g.Message, "big_test.go was deleted with its 150 tests") || !strings.Contains(g.Message, "and 140 more") {
		t.Errorf("grouped finding: %+v", g)
	}
	if got[1].Test != "TestMul" {
		t.Errorf("a test deleted from a file that stays is its own finding: %+v", got[1])
	}
	// The verdict is unchanged by grouping.
	if gate.Decide(got, gate.FailOn(gate.SeverityHigh)) != gate.Decide(fs, gate.FailOn(gate.SeverityHigh)) {
		t.Error("grouping changed the verdict")
	}
	// Grouping twice changes nothing.
	if again := Group(got); len(again) != 2 || again[0].ID != g.ID {
		t.Errorf("not idempotent: %+v", again)
	}
}

func TestGroupGivesDistinctFindingsDistinctIDs(t *testing.T) {
	mk := func(line int, msg, commit string, net bool) gate.Finding {
		f := gate.NewFinding(gate.RuleAssertionRemoved, gate.SeverityHigh, "calc_test.go", line, "TestX", "", "", msg)
		f.Commit, f.Net = commit, net
		return f
	}
	fs := []gate.Finding{
		mk(10, "assertion require.Equal(t, 3, got) was removed from TestX.", "c1", true),
		mk(14, "assertion require.NoError(t, err) was removed from TestX.", "c1", true),
		mk(10, "assertion require.Equal(t, 3, got) was removed from TestX.", "c2", false), // the same finding in another commit
	}
	got := Group(fs)
	if len(got) != 3 {
		t.Fatalf("got %d findings, want 3", len(got))
	}
	if got[0].ID == got[1].ID {
		t.Errorf("two removed assertions share id %s", got[0].ID)
	}
	if got[0].ID != got[2].ID {
		t.Errorf("one finding in two commits got two ids: %s, %s", got[0].ID, got[2].ID)
	}
	// Stable: moving the lines does not change the ids.
	moved := []gate.Finding{mk(40, fs[0].Message, "c1", true), mk(44, fs[1].Message, "c1", true)}
	again := Group(moved)
	if again[0].ID != got[0].ID || again[1].ID != got[1].ID {
		t.Errorf("ids changed when the lines moved")
	}
}
