package analyze

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestRowsKeepInputs(t *testing.T) {
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
		if got := rowsKeepInputs([]*locTest{old}, tt.by); got != tt.want {
			t.Errorf("%s: rowsKeepInputs = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestIsRowID(t *testing.T) {
	for id, want := range map[string]bool{"T.m[1]": true, "T.m[12]": true, "T.m": false, "T.m[x]": false, "T.m[1]x": false} {
		if got := isRowID(id); got != want {
			t.Errorf("isRowID(%q) = %v, want %v", id, got, want)
		}
	}
}
