package ci

import (
	"strings"
	"testing"
)

// TestShellChecks follows a check's exit status to the script's result
// under GitHub's default shell (bash -e), its `shell: bash` (-eo pipefail)
// and a plain sh -c (make's recipes).
func TestShellChecks(t *testing.T) {
	ghDefault := shellOpts{errexit: true}
	ghBash := shellOpts{errexit: true, pipefail: true}
	plain := shellOpts{}
	for _, tc := range []struct {
		src   string
		opts  shellOpts
		key   string
		want  bool
		cause string
	}{
		{"go test ./...", ghDefault, "go test", true, ""},
		{"go test ./...\necho done", ghDefault, "go test", true, ""},
		{"go test ./... || echo failed", ghDefault, "go test", false, "`|| echo failed` replaces"},
		{"go test ./... || true", ghDefault, "go test", false, "replaces its exit status"},
		{"go test ./... || :", ghDefault, "go test", false, "replaces its exit status"},
		{"go test ./... || exit 1", ghDefault, "go test", true, ""},
		{"go test ./... || exit", plain, "go test", true, ""},
		{"go test ./... || { echo failed; exit 1; }", ghDefault, "go test", true, ""},
		{"go test ./... || { echo failed; false; }", ghDefault, "go test", true, ""},
		// A guard that exits only when a tool is missing does not end the
		// script: the checks after it still run and still gate.
		{"command -v go >/dev/null || { echo 'no go' >&2; exit 1; }\ngo test ./...\necho done", ghDefault, "go test", true, ""},
		{"which go || exit 1\ngo vet ./...\ngo test ./...", ghDefault, "go test", true, ""},
		{"test -d vendor || false\ngo test ./...", ghDefault, "go test", true, ""},
		{"set +e\ngo test ./...\necho done", ghDefault, "go test", false, "set +e"},
		{"set +e\ngo test ./...", ghDefault, "go test", true, ""},
		{"set +e\ngo test ./...\nstatus=$?\necho $status\nexit $status", ghDefault, "go test", true, ""},
		{"go test ./...; exit 0", ghDefault, "go test", true, ""}, // -e stops it first
		{"go test ./...; exit 0", plain, "go test", false, "`exit 0` follows it"},
		{"go test ./...\necho done", plain, "go test", false, "later command's status"},
		{"go test ./... &", ghDefault, "go test", false, "background"},
		{"go test ./... &\nwait $!", ghDefault, "go test", true, ""},
		{"go test ./... | tee out.txt", ghDefault, "go test", false, "no pipefail"},
		{"go test ./... | tee out.txt", ghBash, "go test", true, ""},
		{"set -o pipefail\ngo test ./... | tee out.txt", ghDefault, "go test", true, ""},
		{"set -euo pipefail\ngo test ./... | tee out.txt\necho ok", plain, "go test", true, ""},
		{"! go test ./...", ghDefault, "go test", false, "negated"},
		{"if ! go test ./...; then exit 1; fi", ghDefault, "go test", true, ""},
		{"if ! go test ./...; then echo flaky; fi", ghDefault, "go test", false, "condition of an `if`"},
		{"if go test ./...; then echo ok; else exit 1; fi", ghDefault, "go test", true, ""},
		{"if go test ./...; then echo ok; else echo bad; fi", ghDefault, "go test", false, "condition of an `if`"},
		{"(go test ./...)", ghDefault, "go test", true, ""},
		{"(go test ./... || true)", ghDefault, "go test", false, "replaces"},
		{"(set +e; go test ./...; exit 0)", ghDefault, "go test", false, "exit 0"},
		{"bash -c 'go test ./... || true'", ghDefault, "go test", false, "replaces"},
		{"bash -c 'go test ./...'", ghDefault, "go test", true, ""},
		{"for d in a b; do (cd $d && go test ./...); done", ghDefault, "go test", true, ""},
		{"go test ./... && echo ok", ghDefault, "go test", true, ""},
		{"cd x && go test ./...", ghDefault, "go test", true, ""},
		{"run() { go test ./...; }\nrun", ghDefault, "go test", true, ""},
		{"run() { go test ./... || true; }\nrun", ghDefault, "go test", false, "replaces"},
		{"timeout 10m go test ./...", ghDefault, "go test", true, ""},
		{"env CGO_ENABLED=0 go test ./... || true", ghDefault, "go test", false, "replaces"},
		{"npm test", ghDefault, "npm test", true, ""},
		{"npm run lint -- --fix || echo lint failed", ghDefault, "npm run lint", false, "replaces"},
		{"make lint; exit 0", plain, "make lint", false, "exit 0"},
		{"python -m pytest -q || true", ghDefault, "python -m pytest", false, "replaces"},
		{"uv run pytest", ghDefault, "pytest", true, ""},
		{"./mvnw -B verify", ghDefault, "mvnw verify", true, ""},
		{"golangci-lint run ./... || exit 0", ghDefault, "golangci-lint", false, "replaces"},
	} {
		f, err := shellChecks(tc.src, tc.opts)
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		got, ok := f.reaching()[tc.key]
		if !ok {
			t.Errorf("%q: no check %q found (runs: %v)", tc.src, tc.key, keys(f))
			continue
		}
		if got != tc.want {
			t.Errorf("%q (errexit=%v pipefail=%v): reaches=%v, want %v", tc.src, tc.opts.errexit, tc.opts.pipefail, got, tc.want)
		}
		if !tc.want {
			causes := ""
			for _, r := range f.runs {
				if r.key == tc.key && !f.reached[r] {
					causes += r.cause + "|"
				}
			}
			if !strings.Contains(causes, tc.cause) {
				t.Errorf("%q: cause %q, want it to say %q", tc.src, causes, tc.cause)
			}
		}
	}
	for _, src := range []string{"echo hi", "git diff --exit-code", "make", "go build ./...", "npm ci"} {
		if f, err := shellChecks(src, ghDefault); err != nil || len(f.runs) != 0 {
			t.Errorf("%q: read as a check: %v %v", src, keys(f), err)
		}
	}
	if _, err := shellChecks("if then fi (", ghDefault); err == nil {
		t.Errorf("a broken script parsed")
	}
}

func keys(f *shellFacts) []string {
	if f == nil {
		return nil
	}
	var ks []string
	for _, r := range f.runs {
		ks = append(ks, r.key)
	}
	return ks
}

func FuzzShellChecks(f *testing.F) {
	for _, s := range []string{"go test ./... || true", "set +e\nnpm test\nexit 0", "if ! pytest; then exit 1; fi", "f() { f; }\nf", "bash -c 'bash -c \"go test\"'", "a | b | go vet &"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, o := range []shellOpts{{}, {errexit: true}, {errexit: true, pipefail: true}} {
			fs, err := shellChecks(src, o)
			if err != nil {
				continue
			}
			for r := range fs.reached {
				if r.cause != "" && fs.reached[r] {
					// a run may be dropped on one path and reach on another
					continue
				}
			}
			for _, r := range fs.runs {
				if r.key == "" || r.line < 0 {
					t.Fatalf("bad run %+v", r)
				}
			}
		}
	})
}

// TestShellChecksHostile: ways to keep a check's text and lose its status
// that a first version missed.
func TestShellChecksHostile(t *testing.T) {
	for _, tc := range []struct{ src, key, cause string }{
		{"trap 'exit 0' EXIT\ngo test ./...", "go test", "trap"},
		{"trap 'echo failed; exit 0' ERR\nnpm test", "npm test", "trap"},
		{"go() { :; }\ngo test ./...", "go test", "redefined as a shell function"},
		{"pytest() { echo ok; }\npytest -q", "pytest", "redefined as a shell function"},
		{"eval 'go test ./... || true'", "go test", "replaces"},
		{"eval \"set +e\"\ngo test ./...\necho done", "go test", "set +e"},
	} {
		f, err := shellChecks(tc.src, shellOpts{errexit: true})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, r := range f.runs {
			if r.key == tc.key {
				found = true
				if f.reached[r] || !strings.Contains(r.cause, tc.cause) {
					t.Errorf("%q: reached=%v cause %q, want dropped with %q", tc.src, f.reached[r], r.cause, tc.cause)
				}
			}
		}
		if !found {
			t.Errorf("%q: no run of %q", tc.src, tc.key)
		}
	}
	// A trap that cleans up keeps the status; a helper function that runs
	// the tool keeps it too.
	for _, src := range []string{"trap 'rm -rf tmp' EXIT\ngo test ./...", "run_tests() { go test ./...; }\nrun_tests", "eval \"go test $FLAGS ./...\""} {
		f, _ := shellChecks(src, shellOpts{errexit: true})
		if !f.reaching()["go test"] {
			t.Errorf("%q: go test no longer reaches", src)
		}
	}
}
