package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

const dateSrc = `package dates

import "time"

// DaysIn returns the number of days in the month of s (YYYY/MM).
func DaysIn(s string) (int, error) {
	t, err := time.Parse("2006/01", s)
	if err != nil {
		return 0, err
	}
	return t.AddDate(0, 1, -t.Day()).Day(), nil
}
`

const dateTest = `package dates

import "testing"

func TestDaysIn(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"2024/02", 29},
		{"2023/02", 28},
		{"1900/02", 28},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := DaysIn(tc.in)
			if err != nil || got != tc.want {
				t.Errorf("DaysIn(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
			}
		})
	}
}
`

// TestSpecialCasedTest: production code that answers a test's input with
// that test's expected value is validation_bypass high; comparing against
// a value a test uses, without returning its answer, stays medium.
func TestSpecialCasedTest(t *testing.T) {
	related := func(string) []Source { return []Source{{Path: "dates/dates_test.go", Data: []byte(dateTest)}} }
	change := func(head string) []gate.Finding {
		return runChange(Change{Commit: "c0ffee", Files: []FileChange{mod("dates/dates.go", dateSrc, head)}, RelatedTests: related})
	}
	cheat := strings.Replace(dateSrc, "\tt, err := time.Parse", "\tif s == \"1900/02\" {\n\t\treturn 28, nil\n\t}\n\tt, err := time.Parse", 1)
	fs := change(cheat)
	expectFinding(t, fs, gate.ValidationBypass, gate.SeverityHigh, "dates/dates.go", "")
	if !strings.Contains(dump(fs), "special-cased-test") {
		t.Errorf("want rule special-cased-test:%s", dump(fs))
	}
	viaSwitch := strings.Replace(dateSrc, "\tt, err := time.Parse", "\tswitch s {\n\tcase \"1900/02\":\n\t\treturn 28, nil\n\t}\n\tt, err := time.Parse", 1)
	expectFinding(t, change(viaSwitch), gate.ValidationBypass, gate.SeverityHigh, "dates/dates.go", "")

	for name, head := range map[string]string{
		"compares, returns an error":                 strings.Replace(dateSrc, "\tt, err := time.Parse", "\tif s == \"1900/02\" {\n\t\treturn 0, errUnsupported\n\t}\n\tt, err := time.Parse", 1),
		"compares, computes":                         strings.Replace(dateSrc, "\tt, err := time.Parse", "\tif s == \"1900/02\" {\n\t\ts = \"1901/02\"\n\t}\n\tt, err := time.Parse", 1),
		"returns a value no test of that input uses": strings.Replace(dateSrc, "\tt, err := time.Parse", "\tif s == \"1900/02\" {\n\t\treturn 29, nil\n\t}\n\tt, err := time.Parse", 1),
	} {
		t.Run(name, func(t *testing.T) {
			expectNoHigh(t, change(head))
		})
	}
}

// TestSpecialCasedTestPython: the same in Python, a parametrized case and
// a plain test.
func TestSpecialCasedTestPython(t *testing.T) {
	const src = "import calendar\n\n\ndef days_in(s):\n    y, m = s.split('/')\n    return calendar.monthrange(int(y), int(m))[1]\n"
	const test = "import pytest\n\nfrom dates import days_in\n\n\n@pytest.mark.parametrize('s,want', [('2024/02', 29), ('1900/02', 28)])\ndef test_days_in(s, want):\n    assert days_in(s) == want\n\n\ndef test_leap_2000():\n    assert days_in('2000/02') == 29\n"
	related := func(string) []Source { return []Source{{Path: "tests/test_dates.py", Data: []byte(test)}} }
	change := func(head string) []gate.Finding {
		return runChange(Change{Commit: "c0ffee", Files: []FileChange{mod("dates.py", src, head)}, RelatedTests: related})
	}
	for _, in := range []string{"1900/02", "2000/02"} {
		head := strings.Replace(src, "    y, m = s.split('/')\n", "    if s == '"+in+"':\n        return "+map[string]string{"1900/02": "28", "2000/02": "29"}[in]+"\n    y, m = s.split('/')\n", 1)
		fs := change(head)
		if !strings.Contains(dump(fs), "special-cased-test") {
			t.Errorf("%s: want special-cased-test:%s", in, dump(fs))
		}
	}
	expectNoHigh(t, change(strings.Replace(src, "    y, m = s.split('/')\n", "    if s == '1900/02':\n        raise ValueError('before 1901')\n    y, m = s.split('/')\n", 1)))
}

// TestSpecialCasedTestJS: the same in TypeScript.
func TestSpecialCasedTestJS(t *testing.T) {
	const src = "export function daysIn(s: string): number {\n  const [y, m] = s.split('/').map(Number);\n  return new Date(y, m, 0).getDate();\n}\n"
	const test = "import { daysIn } from '../src/dates';\n\ntest('february 1900 has 28 days', () => {\n  expect(daysIn('1900/02')).toBe(28);\n});\n\ntest('leap year', () => {\n  expect(daysIn('2024/02')).toBe(29);\n});\n"
	related := func(string) []Source { return []Source{{Path: "test/dates.test.ts", Data: []byte(test)}} }
	change := func(head string) []gate.Finding {
		return runChange(Change{Commit: "c0ffee", Files: []FileChange{mod("src/dates.ts", src, head)}, RelatedTests: related})
	}
	for _, ins := range []string{"  if (s === '1900/02') return 28;\n", "  if (s === '1900/02') {\n    return 28;\n  }\n"} {
		fs := change(strings.Replace(src, "  const [y, m]", ins+"  const [y, m]", 1))
		if !strings.Contains(dump(fs), "special-cased-test") {
			t.Errorf("%q: want special-cased-test:%s", ins, dump(fs))
		}
	}
	expectNoHigh(t, change(strings.Replace(src, "  const [y, m]", "  if (s === '1900/02') throw new RangeError('before 1901');\n  const [y, m]", 1)))
	expectNoHigh(t, change(strings.Replace(src, "  const [y, m]", "  if (s === '1900/02') return 29;\n  const [y, m]", 1)))
}

// TestSpecialCaseInTwoSteps: a guard on the test's input added first (medium
// at most), then turned into the test's answer: the second step is high.
func TestSpecialCaseInTwoSteps(t *testing.T) {
	related := func(string) []Source { return []Source{{Path: "dates/dates_test.go", Data: []byte(dateTest)}} }
	guard := strings.Replace(dateSrc, "\tt, err := time.Parse", "\tif s == \"1900/02\" {\n\t\treturn 0, errUnsupported\n\t}\n\tt, err := time.Parse", 1)
	answer := strings.Replace(guard, "return 0, errUnsupported", "return 28, nil", 1)
	fs := runChange(Change{Commit: "c0ffee", Files: []FileChange{mod("dates/dates.go", guard, answer)}, RelatedTests: related})
	if !strings.Contains(dump(fs), "special-cased-test") {
		t.Errorf("want special-cased-test:%s", dump(fs))
	}
	// Reformatting the answer's branch is not a new answer.
	moved := strings.Replace(answer, "// DaysIn returns", "// DaysIn, for a month, returns", 1)
	expectNoHigh(t, runChange(Change{Commit: "c0ffee", Files: []FileChange{mod("dates/dates.go", answer, moved)}, RelatedTests: related}))
}
