package analyze

import (
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// keptByRows returns the deleted tests that Java tests folded into the
// cases of a parameterized test ("[1]", "[2]": the rows of its @CsvSource,
// @ValueSource or @MethodSource table) can replace: those whose every
// literal the rows or the body kept. A table that counts as many checks
// but left out a test's input or expected value replaces not that test;
// the others folded into it are replaced all the same, each judged by its
// own values (a file's two tests folded, one of them dropped, is one test
// lost, not two). Other languages, and Java replacements by plain tests,
// are not asked: every deleted test is returned.
func keptByRows(deleted, by []*locTest) []*locTest {
	rows := false
	have := map[string]bool{}
	for _, n := range by {
		if n.side.facts == nil || n.side.facts.Lang != testscan.Java {
			return deleted
		}
		rows = rows || isRowID(n.tc.ID)
		for _, l := range n.tc.Literals {
			have[literalValue(l)] = true
		}
	}
	if !rows {
		return deleted
	}
	var out []*locTest
	for _, o := range deleted {
		all := true
		for _, l := range o.tc.Literals {
			all = all && have[literalValue(l)]
		}
		if all {
			out = append(out, o)
		}
	}
	return out
}

// isRowID reports whether a Java test id names one case of a
// parameterized test: "Class.method[3]".
func isRowID(id string) bool {
	i := strings.LastIndexByte(id, '[')
	if i < 0 || !strings.HasSuffix(id, "]") {
		return false
	}
	_, err := strconv.Atoi(id[i+1 : len(id)-1])
	return err == nil
}

// literalValue is a literal's value: a quoted string unquoted (a table's
// cell and a body's literal compare alike), anything else as written.
func literalValue(l string) string {
	if len(l) >= 2 && l[0] == '"' {
		if s, err := strconv.Unquote(l); err == nil {
			return s
		}
		return l[1 : len(l)-1]
	}
	return l
}
