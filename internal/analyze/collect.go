package analyze

import (
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"path"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// notCollected says why the language's test runner, run the usual way,
// does not collect the tests of a file at path p, or "" when it does (or
// when the language's runners could collect it somewhere). It is what makes
// a test file renamed to a name the runner ignores, or moved under
// testdata/, vendor/ or node_modules/, a lost test rather than a move.
//
// The rules are each runner's defaults; a project's runner configuration
// (pytest's python_files, jest's testMatch) is judged where it changes.
func notCollected(lang testscan.Lang, p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	base := path.Base(p)
	dirs := strings.Split(path.Dir(p), "/")
	switch lang {
	case testscan.Go:
		// go test builds only *_test.go files, ignores names starting with
		// "_" or "." and `go test ./...` skips testdata, vendor and
		// directories starting with "_" or ".".
		switch {
		case !strings.HasSuffix(base, "_test.go"):
			return "go test builds only files named *_test.go"
		case strings.HasPrefix(base, "_") || strings.HasPrefix(base, "."):
			return "go test ignores files whose names start with an underscore or a dot"
		}
		for _, d := range dirs {
			switch {
			case d == "testdata" || d == "vendor":
				return "go test ./... does not build packages under " + d + "/"
			case d != "." && d != ".." && (strings.HasPrefix(d, "_") || strings.HasPrefix(d, ".")):
				return "go test ./... skips directories whose names start with an underscore or a dot"
			}
		}
	case testscan.Python:
		// pytest's python_files (test_*.py, *_test.py) and unittest's
		// discovery pattern (test*.py); pytest's default norecursedirs.
		if !strings.HasSuffix(base, ".py") || !(strings.HasPrefix(base, "test") || strings.HasSuffix(base, "_test.py")) {
			return "pytest collects only test_*.py and *_test.py (unittest only test*.py)"
		}
		for _, d := range dirs {
			switch {
			case d == "node_modules" || d == "venv" || d == "build" || d == "dist" || d == "CVS" || d == "_darcs" ||
				strings.HasSuffix(d, ".egg") || (d != "." && d != ".." && strings.HasPrefix(d, ".")):
				return "pytest does not recurse into " + d + "/"
			}
		}
	case testscan.JavaScript:
		// jest's testMatch and vitest's include (*.test.* and *.spec.*,
		// jest also __tests__/), mocha's test/ directory; all three skip
		// node_modules, and vitest dist.
		inTestDir := false
		for _, d := range dirs {
			switch d {
			case "node_modules", "dist":
				return "test runners do not collect files under " + d + "/"
			case "__tests__", "test", "tests":
				inTestDir = true
			}
		}
		if !inTestDir && !jsTestName.MatchString(base) {
			return "jest and vitest collect only *.test.* and *.spec.* files (or files under __tests__/)"
		}
	case testscan.Java:
		// Maven Surefire's and Failsafe's default includes.
		stem := strings.TrimSuffix(base, ".java")
		for _, s := range []string{"Test", "Tests", "TestCase", "IT", "ITCase"} {
			if strings.HasSuffix(stem, s) && len(stem) > len(s) {
				return ""
			}
		}
		if (strings.HasPrefix(stem, "Test") || strings.HasPrefix(stem, "IT")) && len(stem) > 4 {
			return ""
		}
		return "Maven Surefire and Failsafe run only classes named Test*, *Test, *Tests, *TestCase, IT* or *IT"
	case testscan.Rust:
		// cargo test does not run the tests of examples or benches.
		for _, d := range dirs {
			if d == "examples" || d == "benches" {
				return "cargo test does not run tests under " + d + "/"
			}
		}
	}
	return ""
}

// jsTestName is jest's and vitest's default file pattern.
var jsTestName = lazyre.New(`(?i)(^|\.)(test|spec)\.[cm]?[jt]sx?$`)
