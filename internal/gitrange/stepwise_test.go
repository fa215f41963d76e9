package gitrange

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// TestStepwiseDeletion commits a test's rename (or a fold into a
// parametrized test) and then a second change, and analyzes the range: a
// test renamed and then left alone, or reworked one step at a time, is no
// net deletion at high; one renamed and then deleted, emptied or skipped in
// the next commit, or folded and then stripped of a case, is (the hostile
// way to spread a deletion over commits that each look clean at the net).
func TestStepwiseDeletion(t *testing.T) {
	const addGo = "package m\n\nfunc Add(a, b int) int { return a + b }\n"
	goTests := func(add string) string {
		return "package m\n\nimport \"testing\"\n\n" + add +
			"func TestOther(t *testing.T) {\n\tif Add(1, 1) != 2 {\n\t\tt.Fatal(\"1+1\")\n\t}\n}\n"
	}
	const testAdd = "func TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(\"2+3\")\n\t}\n}\n\n"
	renamed := strings.Replace(testAdd, "TestAdd(", "TestAddition(", 1)
	const pyBase = "from calc import add\n\n\ndef test_add_small():\n    assert add(2, 3) == 5\n\n\ndef test_add_big():\n    assert add(200, 300) == 500\n"
	pyFold := func(rows string) string {
		return "import pytest\n\nfrom calc import add\n\n\n@pytest.mark.parametrize(\"a,b,want\", [" + rows + "])\ndef test_add(a, b, want):\n    assert add(a, b) == want\n"
	}
	for _, tc := range []struct {
		name  string
		file  string
		steps []string // the test file at BASE, then after each commit
		block bool
	}{
		{"renamed, then kept", "m_test.go", []string{goTests(testAdd), goTests(renamed), goTests(renamed + "// TestAddition checks Add.\n")}, false},
		{"renamed, then deleted", "m_test.go", []string{goTests(testAdd), goTests(renamed), goTests("")}, true},
		{"renamed, then emptied", "m_test.go", []string{goTests(testAdd), goTests(renamed), goTests("func TestAddition(t *testing.T) {\n\t_ = Add(2, 3)\n}\n\n")}, true},
		{"renamed, then skipped", "m_test.go", []string{goTests(testAdd), goTests(renamed), goTests(strings.Replace(renamed, "{\n\tif", "{\n\tt.Skip(\"flaky\")\n\tif", 1))}, true},
		{"folded, then a case added", "tests/test_calc.py", []string{pyBase, pyFold("(2, 3, 5), (200, 300, 500)"), pyFold("(2, 3, 5), (200, 300, 500), (-1, 1, 0)")}, false},
		{"folded, then a case dropped", "tests/test_calc.py", []string{pyBase, pyFold("(2, 3, 5), (200, 300, 500)"), pyFold("(2, 3, 5)")}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := testgit.Init(t)
			testgit.Write(t, dir, "go.mod", "module ex.com/m\n\ngo 1.22\n")
			testgit.Write(t, dir, "m.go", addGo)
			testgit.Write(t, dir, "calc.py", "def add(a, b):\n    return a + b\n")
			var shas []string
			for i, content := range tc.steps {
				testgit.Write(t, dir, tc.file, content)
				shas = append(shas, testgit.Commit(t, dir, "step "+string(rune('0'+i))))
			}
			var got []string
			for _, f := range analyzeRange(t, dir, shas[0], shas[len(shas)-1]) {
				if f.Net && f.Severity >= gate.SeverityHigh {
					got = append(got, f.Severity.String()+" "+string(f.Type)+" "+f.Test+": "+f.Message)
				}
			}
			if blocks := len(got) > 0; blocks != tc.block {
				t.Errorf("blocks = %v, want %v; net findings at high:\n  %s", blocks, tc.block, strings.Join(got, "\n  "))
			}
		})
	}
}
