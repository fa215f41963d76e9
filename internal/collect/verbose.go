package collect

import (
	"bufio"
	"bytes"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"strings"
)

// Outcomes of a test named in a run's output.
const (
	TestPassed  = "pass"
	TestFailed  = "fail"
	TestSkipped = "skip"
)

// goResult is `go test -v`'s line for one test's end, indented once per
// subtest level: "--- PASS: TestX/sub (0.00s)".
var goResult = lazyre.New(`^\s*--- (PASS|FAIL|SKIP): (\S+) \(`)

// goPackageEnd is go test's line for a package's end: "ok  \tpkg\t0.1s",
// "FAIL\tpkg\t0.1s", "FAIL\tpkg [build failed]", "?   \tpkg\t[no test files]".
var goPackageEnd = lazyre.New(`^(ok|FAIL|\?) *\t(\S+)(?:\t| \[|$)`)

// pytestSummary is a line of pytest's short test summary (-rA):
// "PASSED tests/test_a.py::test_x", "FAILED tests/test_a.py::test_y - msg".
var pytestSummary = lazyre.New(`^(PASSED|FAILED|ERROR|XFAIL|XPASS) (\S+?::.*?)(?: - .*)?$`)

// VerboseTests reads the tests a CI step's output names and how each
// ended, keyed by id: Go's `-v` lines ("pkg.TestX/sub", the package from
// the package's closing line; a package that failed to build is its own
// id), pytest's `-rA` summary ("tests/test_a.py::test_x"). A test named
// twice keeps its worst outcome. Output is what the code under test
// printed too, so the ids are a comparison's evidence, never a verdict
// on their own: a run's exit status is.
func VerboseTests(out []byte) map[string]string {
	ids := map[string]string{}
	put := func(id, outcome string) {
		if prev, ok := ids[id]; ok && rank(prev) >= rank(outcome) {
			return
		}
		ids[id] = outcome
	}
	var pending [][2]string // Go results waiting for their package's line
	inSummary := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if m := goResult.FindStringSubmatch(line); m != nil {
			pending = append(pending, [2]string{m[2], goOutcome(m[1])})
			continue
		}
		if m := goPackageEnd.FindStringSubmatch(line); m != nil {
			pkg := m[2]
			for _, p := range pending {
				put(pkg+"."+p[0], p[1])
			}
			pending = pending[:0]
			if m[1] == "FAIL" && strings.Contains(line, "[build failed]") || m[1] == "FAIL" && strings.Contains(line, "[setup failed]") {
				put(pkg, TestFailed)
			}
			continue
		}
		if strings.HasPrefix(line, "=") && strings.Contains(line, " short test summary info ") {
			inSummary = true
			continue
		}
		if inSummary {
			if m := pytestSummary.FindStringSubmatch(line); m != nil {
				switch m[1] {
				case "PASSED", "XPASS":
					put(m[2], TestPassed)
				case "XFAIL":
					put(m[2], TestSkipped)
				default:
					put(m[2], TestFailed)
				}
				continue
			}
			if strings.HasPrefix(line, "=") {
				inSummary = false
			}
		}
	}
	// Results after the last package line: a run cut short.
	for _, p := range pending {
		put(p[0], p[1])
	}
	return ids
}

func goOutcome(s string) string {
	switch s {
	case "PASS":
		return TestPassed
	case "SKIP":
		return TestSkipped
	}
	return TestFailed
}

func rank(outcome string) int {
	switch outcome {
	case TestFailed:
		return 2
	case TestSkipped:
		return 1
	}
	return 0
}
