package ci

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCITestSteps(t *testing.T) {
	const wf = `on: [pull_request]
env:
  GOFLAGS: -mod=mod
jobs:
  test:
    runs-on: ubuntu-latest
    env:
      CGO_ENABLED: "0"
    defaults:
      run:
        working-directory: ./sub
    steps:
      - uses: actions/checkout@v4
      - run: go mod download
      - name: Unit
        run: go test ./...
        env:
          CGO_ENABLED: "1"
      - name: Lint
        run: golangci-lint run
      - name: Via make
        working-directory: .
        shell: bash
        run: make check
`
	files := map[string][]byte{
		".github/workflows/ci.yml": []byte(wf),
		"Makefile":                 []byte("check:\n\tpytest -q\n"),
	}
	got := TestSteps(files)
	want := []Step{
		{Workflow: ".github/workflows/ci.yml", Job: "test", Name: "Unit", Index: 2, Line: 16, Script: "go test ./...", Shell: "bash", Dir: "sub",
			Env: map[string]string{"GOFLAGS": "-mod=mod", "CGO_ENABLED": "1"}, Checks: []string{"go test"}},
		{Workflow: ".github/workflows/ci.yml", Job: "test", Name: "Via make", Index: 4, Line: 24, Script: "make check", Shell: "bash", Pipefail: true, Dir: ".",
			Env: map[string]string{"GOFLAGS": "-mod=mod", "CGO_ENABLED": "0"}, Checks: []string{"pytest"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("steps (-want +got):\n%s", d)
	}
	if got[0].Key() != ".github/workflows/ci.yml test Unit" || !strings.Contains(got[1].Title(), `step "Via make"`) {
		t.Errorf("key %q, title %q", got[0].Key(), got[1].Title())
	}
}

// TestCITestStepsSkipAndOff: steps that cannot run here say why; steps
// that do not gate a pull request are not steps to measure.
func TestCITestStepsSkipAndOff(t *testing.T) {
	for _, c := range []struct {
		name, wf string
		skip     string // "" runnable; "-" no step at all
	}{
		{"runnable", "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-22.04\n    steps:\n      - run: go test ./...\n", ""},
		{"service containers", "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    services:\n      db:\n        image: postgres\n    steps:\n      - run: go test ./...\n", "service containers"},
		{"container job", "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    container: golang:1.22\n    steps:\n      - run: go test ./...\n", "container"},
		{"a secret in env", "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: go test ./...\n        env:\n          API: ${{ secrets.API }}\n", "secret"},
		{"an expression in the script", "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: go test ${{ matrix.flags }} ./...\n", "expressions"},
		{"windows", "on: pull_request\njobs:\n  t:\n    runs-on: windows-latest\n    steps:\n      - run: go test ./...\n", "windows-latest"},
		{"pwsh", "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - shell: pwsh\n        run: go test ./...\n", "pwsh"},
		{"docker", "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: docker compose up -d && go test ./...\n", "Docker daemon"},
		{"a download first", "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          curl -sSfL https://example.com/x | sh\n          go test ./...\n", "network"},
		{"push only", "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: go test ./...\n", "-"},
		{"job off on pull requests", "on: pull_request\njobs:\n  t:\n    if: github.event_name != 'pull_request'\n    runs-on: ubuntu-latest\n    steps:\n      - run: go test ./...\n", "-"},
		{"step allowed to fail", "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: go test ./...\n        continue-on-error: true\n", "-"},
		{"step off", "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - if: false\n        run: go test ./...\n", "-"},
		{"not a test step", "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: go vet ./...\n", "-"},
		{"reusable workflow job", "on: pull_request\njobs:\n  t:\n    uses: ./.github/workflows/test.yml\n", "-"},
		{"not YAML", "on: [pull_request\n", "-"},
	} {
		steps := TestSteps(map[string][]byte{".github/workflows/x.yml": []byte(c.wf)})
		switch {
		case c.skip == "-":
			if len(steps) != 0 {
				t.Errorf("%s: steps %+v, want none", c.name, steps)
			}
		case len(steps) != 1:
			t.Errorf("%s: %d steps, want 1", c.name, len(steps))
		case c.skip == "" && steps[0].Skip != "", c.skip != "" && !strings.Contains(steps[0].Skip, c.skip):
			t.Errorf("%s: skip %q, want %q", c.name, steps[0].Skip, c.skip)
		}
	}
}

func TestCINamedFilesAndProgram(t *testing.T) {
	wf := "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    defaults:\n      run:\n        working-directory: app\n    steps:\n      - run: ./build/test --fast\n      - run: bash ../tools/ci.sh && go test ./pkg/...\n      - run: python3 hack/check.py\n"
	got := NamedFiles(map[string][]byte{".github/workflows/x.yml": []byte(wf)})
	want := []string{"app/build/test", "app/hack/check.py", "tools/ci.sh"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("named files (-want +got):\n%s", d)
	}
	// A shebang script the step runs by path is followed for its checks.
	steps := TestSteps(map[string][]byte{
		".github/workflows/x.yml": []byte(wf),
		"app/build/test":          []byte("#!/usr/bin/env bash\nset -e\ngo test ./...\n"),
	})
	if len(steps) != 2 || steps[0].Script != "./build/test --fast" {
		t.Errorf("steps %+v", steps)
	}
	for p, want := range map[string]bool{
		".github/workflows/ci.yml": true, "Makefile": true, "sub/Makefile": true, "rules.mk": true, "tox.ini": true,
		"scripts/test": true, "deploy/run.sh": true, "main.go": false, "package.json": false, "docs/tox.ini": false,
	} {
		if ProgramFile(p) != want {
			t.Errorf("CIProgramFile(%q) = %v", p, !want)
		}
	}
	if s := ScriptsOf([]byte(`{"name":"x","scripts":{"test":"jest"}}`)); string(s) != `{"test":"jest"}` {
		t.Errorf("scripts %s", s)
	}
}

func TestSameCIStep(t *testing.T) {
	step := func(script string) Step { return Step{Script: script, Shell: "bash", Dir: "."} }
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"go test ./...", "go test ./...", true},
		{"go test ./...", "go test -count=1 ./...", true},
		{"go test ./...", "go test -v -p 2 -json ./...", true},
		{"go test ./...", "go test -trimpath ./...", false},
		{"go test ./...", "go test -count 3 ./...", true},
		{"python -m pytest tests", "python -m pytest -q -rA --tb=short tests", true},
		{"go test ./...", "go test -short ./...", false},
		{"go test ./...", "go test -run TestA ./...", false},
		{"go test ./...", "go test ./pkg/...", false},
		{"go test ./...", "go test ./... || true", false},
		{"go test ./...", "go test ./... > out.txt", false},
		{"go test ./...", "! go test ./...", false},
		{"go test ./...", "go test ./... &", false},
		{"go test ./...", "GOFLAGS=-short go test ./...", false},
		{"go test ./...", "go test -timeout 1s ./...", false},
		{"go test ./...", "go test $FLAGS ./...", false},
		{"pytest", "pytest -x", false},
		{"make test", "make -i test", false},
	} {
		if got := SameStep(step(c.a), step(c.b)); got != c.same {
			t.Errorf("SameCIStep(%q, %q) = %v", c.a, c.b, got)
		}
	}
	a, b := step("go test ./..."), step("go test ./...")
	b.Env = map[string]string{"CGO_ENABLED": "0"}
	if SameStep(a, b) {
		t.Error("a step with another env is the same")
	}
	b = step("go test ./...")
	b.Dir = "sub"
	if SameStep(a, b) {
		t.Error("a step in another directory is the same")
	}
}

// TestCITestStepsMatrix: a job's matrix is expanded as GitHub expands it,
// each combination's ${{ matrix.* }} filled in; combinations that run the
// same step the same way here are one, those on another OS none.
func TestCITestStepsMatrix(t *testing.T) {
	wf := `on: [pull_request]
jobs:
  test:
    strategy:
      matrix:
        os: [ubuntu-latest, macos-latest]
        go: ["1.25", "1.26"]
        tags: ["", "-tags nomsgpack", "-race"]
        exclude:
          - os: ubuntu-latest
            tags: "-race"
        include:
          - os: ubuntu-latest
            go: "1.26"
            tags: "-race"
            extra: "yes"
    runs-on: ${{ matrix.os }}
    env:
      TESTTAGS: ${{ matrix.tags }}
    steps:
      - uses: actions/setup-go@v5
        with:
          go-version: ${{ matrix.go }}
      - name: Run Tests on ${{ runner.os }}
        run: make test
`
	files := map[string][]byte{".github/workflows/ci.yml": []byte(wf), "Makefile": []byte("test:\n\tgo test $(TESTTAGS) ./...\n")}
	var got []string
	for _, s := range TestSteps(files) {
		if s.Skip != "" {
			t.Errorf("step %s skipped: %s", s.Key(), s.Skip)
		}
		got = append(got, s.Name+" | "+s.Combo+" | TESTTAGS="+s.Env["TESTTAGS"])
	}
	want := []string{
		"Run Tests on Linux | go=1.25, os=ubuntu-latest, tags= | TESTTAGS=",
		"Run Tests on Linux | go=1.25, os=ubuntu-latest, tags=-tags nomsgpack | TESTTAGS=-tags nomsgpack",
		"Run Tests on Linux | extra=yes, go=1.26, os=ubuntu-latest, tags=-race | TESTTAGS=-race",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("steps (-want +got):\n%s", d)
	}
	// A matrix from an expression only the runner reads: one step, skipped.
	expr := strings.Replace(wf, "      matrix:\n", "      matrix: ${{ fromJSON(needs.setup.outputs.matrix) }}\n      x:\n", 1)
	steps := TestSteps(map[string][]byte{".github/workflows/ci.yml": []byte(expr), "Makefile": files["Makefile"]})
	if len(steps) != 1 || steps[0].Skip == "" {
		t.Errorf("expression matrix: %+v", steps)
	}
}
