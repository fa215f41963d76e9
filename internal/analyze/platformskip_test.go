package analyze

import (
	"slices"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
)

// TestSkipPlatform: the extractors read a skip on the operating system
// alone, in each language's spellings, and nothing else as one.
func TestSkipPlatform(t *testing.T) {
	goTest := func(cond string) string {
		return "package m\n\nimport (\n\t\"runtime\"\n\t\"testing\"\n)\n\nfunc TestA(t *testing.T) {\n\tif " + cond + " {\n\t\tt.Skip(\"x\")\n\t}\n\tif 1 != 1 {\n\t\tt.Fatal(\"x\")\n\t}\n}\n"
	}
	pyIf := func(cond string) string {
		return "import os, sys, platform\nimport pytest\n\n\ndef test_a():\n    if " + cond + ":\n        pytest.skip('x')\n    assert 1 == 1\n"
	}
	pyMark := func(cond string) string {
		return "import sys\nimport pytest\n\n\n@pytest.mark.skipif(" + cond + ", reason='x')\ndef test_a():\n    assert 1 == 1\n"
	}
	js := func(call string) string {
		return "import { expect, test } from 'vitest'\n\n" + call + "('a', () => {\n  expect(1).toBe(1)\n})\n"
	}
	for _, tc := range []struct {
		path, src, want string
	}{
		{"a_test.go", goTest(`runtime.GOOS == "linux"`), "linux"},
		{"a_test.go", goTest(`"windows" != runtime.GOOS`), "!windows"},
		{"a_test.go", goTest(`runtime.GOOS == "darwin"`), "darwin"},
		{"a_test.go", goTest(`runtime.GOOS == "linux" && testing.Short()`), ""},
		{"a_test.go", goTest(`runtime.GOOS == "plan9"`), ""},
		{"tests/test_a.py", pyIf(`sys.platform == "linux"`), "linux"},
		{"tests/test_a.py", pyIf(`not sys.platform.startswith("win")`), "!windows"},
		{"tests/test_a.py", pyIf(`os.name == "nt"`), "windows"},
		{"tests/test_a.py", pyIf(`platform.system() != "Darwin"`), "!darwin"},
		{"tests/test_a.py", pyIf(`sys.platform == "linux" and slow`), ""},
		{"tests/test_a.py", pyMark(`sys.platform == "linux"`), "linux"},
		{"tests/test_a.py", pyMark(`sys.version_info < (3, 9)`), ""},
		{"test/a.test.js", js(`test.skipIf(process.platform === 'linux')`), "linux"},
		{"test/a.test.js", js(`test.runIf(process.platform === 'win32')`), "!windows"},
		{"test/a.test.js", js(`test.skipIf('darwin' !== process.platform)`), "!darwin"},
		{"test/a.test.js", js(`test.skipIf(process.env.CI)`), ""},
	} {
		f, err := scanners.ForPath(tc.path).Extract(tc.path, []byte(tc.src))
		if err != nil || len(f.Tests) != 1 || f.Tests[0].Skip == nil {
			t.Fatalf("%s %q: no skipped test (%v)", tc.path, tc.src, err)
		}
		if got := f.Tests[0].Skip.Platform; got != tc.want {
			t.Errorf("%s %q: platform %q, want %q", tc.path, tc.src, got, tc.want)
		}
	}
}

// TestSkipsWhereCIRuns: a skip on a system is one where CI runs only when
// every job of the base's CI runs there.
func TestSkipsWhereCIRuns(t *testing.T) {
	linux := map[string]string{"linux": "ci.yml"}
	both := map[string]string{"linux": "ci.yml", "windows": "ci.yml"}
	for _, tc := range []struct {
		platform  string
		platforms map[string]string
		want      bool
	}{
		{"linux", linux, true},
		{"linux", both, false},
		{"!windows", linux, true},
		{"!windows", both, false},
		{"windows", linux, false},
		{"!linux", linux, false},
		{"linux", nil, false},
		{"", linux, false},
	} {
		if got := skipsWhereCIRuns(tc.platform, tc.platforms) != ""; got != tc.want {
			t.Errorf("skipsWhereCIRuns(%q, %v) = %v, want %v", tc.platform, tc.platforms, got, tc.want)
		}
	}
}

// TestCIPlatforms reads the systems a base's workflows run on.
func TestCIPlatforms(t *testing.T) {
	wf := func(runsOn string, rest string) []ci.Source {
		return []ci.Source{{Path: ".github/workflows/ci.yml", Data: []byte("on: [pull_request]\njobs:\n  test:\n    runs-on: " + runsOn + "\n" + rest + "    steps:\n      - run: go test ./...\n")}}
	}
	for _, tc := range []struct {
		name string
		src  []ci.Source
		want string // sorted systems, "" for unknown
	}{
		{"ubuntu", wf("ubuntu-latest", ""), "linux"},
		{"a matrix of images", wf("${{ matrix.os }}", "    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest, macos-14]\n"), "darwin linux windows"},
		{"self-hosted", wf("self-hosted", ""), ""},
		{"no workflow", []ci.Source{{Path: "Makefile", Data: []byte("test:\n\tgo test ./...\n")}}, ""},
	} {
		got := ci.BaseRuns(func() []ci.Source { return tc.src }).Platforms()
		var names []string
		for p := range got {
			names = append(names, p)
		}
		slices.Sort(names)
		if strings.Join(names, " ") != tc.want {
			t.Errorf("%s: platforms %v, want %q", tc.name, names, tc.want)
		}
	}
}

// TestSkipOnResult: a Go skip whose condition reads what the code under
// test returned is one on the result; one on the environment is not.
func TestSkipOnResult(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{"if got := Add(2, 2); got != 4 {\n\t\tt.Skip()\n\t}", true},
		{"got := Add(2, 2)\n\tif got != 4 {\n\t\tt.SkipNow()\n\t}", true},
		{"if Add(2, 2) != 4 {\n\t\tt.Skip(\"flaky\")\n\t}", true},
		{"if _, err := exec.LookPath(\"git\"); err != nil {\n\t\tt.Skip(\"no git\")\n\t}", false},
		{"if len(os.Args) > 5 {\n\t\tt.Skip()\n\t}", false},
		{"if !hasNetwork() {\n\t\tt.Skip(\"offline\")\n\t}", false}, // a helper of the test file
	} {
		src := "package m\n\nimport (\n\t\"os\"\n\t\"os/exec\"\n\t\"testing\"\n)\n\nfunc hasNetwork() bool { return false }\n\nfunc TestA(t *testing.T) {\n\t" + tc.body + "\n\tif Add(2, 2) != 4 {\n\t\tt.Fatal(\"x\")\n\t}\n}\n"
		f, err := scanners.ForPath("a_test.go").Extract("a_test.go", []byte(src))
		if err != nil || len(f.Tests) != 1 || f.Tests[0].Skip == nil {
			t.Fatalf("%q: no skipped test (%v)", tc.body, err)
		}
		if got := f.Tests[0].Skip.OnResult; got != tc.want {
			t.Errorf("%q: on the result %v, want %v", tc.body, got, tc.want)
		}
	}
	// The pytest spellings.
	for _, tc := range []struct {
		body string
		want bool
	}{
		{"result = add(2, 2)\n    if result != 4:\n        pytest.skip('flaky')\n    assert result == 4", true},
		{"if not has_network():\n        pytest.skip('offline')", false},
		{"if calc.add(2, 2) != 4:\n        pytest.skip('flaky')", true},
		{"if not shutil.which('git'):\n        pytest.skip('no git')", false},
		{"if len(sys.argv) > 5:\n        pytest.skip()", false},
	} {
		src := "import shutil, sys\nimport pytest\nimport calc\nfrom calc import add\n\n\ndef test_a():\n    " + tc.body + "\n    assert add(2, 2) == 4\n"
		f, err := scanners.ForPath("tests/test_a.py").Extract("tests/test_a.py", []byte(src))
		if err != nil || len(f.Tests) != 1 || f.Tests[0].Skip == nil {
			t.Fatalf("%q: no skipped test (%v)", tc.body, err)
		}
		if got := f.Tests[0].Skip.OnResult; got != tc.want {
			t.Errorf("%q: on the result %v, want %v", tc.body, got, tc.want)
		}
	}
}
