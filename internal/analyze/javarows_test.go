package analyze

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestKeptByRows(t *testing.T) {
	java := &side{facts: &testscan.File{Lang: testscan.Java}}
	py := &side{facts: &testscan.File{Lang: testscan.Python}}
	lt := func(s *side, id string, lits ...string) *locTest {
		return &locTest{side: s, tc: &testscan.TestCase{ID: id, Literals: lits}}
	}
	old := lt(java, "T.testWrap", `"a/b"`, "9", `"a\nb"`)
	tests := []struct {
		name string
		by   []*locTest
		want bool
	}{
		{"every literal in a row", []*locTest{lt(java, "T.wrap[1]", `"a/b"`, "9", `"a\nb"`), lt(java, "T.wrap[2]", `"x"`)}, true},
		{"a csv cell compares unquoted", []*locTest{lt(java, "T.wrap[1]", `"a/b"`, "9", "\"a\\nb\"")}, true},
		{"the failing row dropped", []*locTest{lt(java, "T.wrap[1]", `"a/b"`, "2", `"a\nb"`)}, false},
		{"plain tests are not asked", []*locTest{lt(java, "T.other", `"x"`)}, true},
		{"other languages are not asked", []*locTest{lt(py, "t.py::wrap[1]", `"x"`)}, true},
	}
	for _, tt := range tests {
		if got := len(keptByRows([]*locTest{old}, tt.by)) == 1; got != tt.want {
			t.Errorf("%s: kept = %v, want %v", tt.name, got, tt.want)
		}
	}
	// Each deleted test is judged by its own values: the one whose row
	// was dropped is left out, the other folded into the table is kept.
	zero := lt(java, "T.testZero", `"(?=a)"`, "3")
	rows := []*locTest{lt(java, "T.wrap[1]", `"a/b"`, "2", `"a\nb"`), lt(java, "T.wrap[2]", `"(?=a)"`, "3")}
	got := keptByRows([]*locTest{old, zero}, rows)
	if len(got) != 1 || got[0] != zero {
		t.Errorf("kept %v, want only T.testZero", got)
	}
}

func TestIsRowID(t *testing.T) {
	for id, want := range map[string]bool{"T.m[1]": true, "T.m[12]": true, "T.m": false, "T.m[x]": false, "T.m[1]x": false} {
		if got := isRowID(id); got != want {
			t.Errorf("isRowID(%q) = %v, want %v", id, got, want)
		}
	}
}
