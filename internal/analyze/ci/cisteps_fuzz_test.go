package ci

import (
	"strings"
	"testing"
)

// FuzzCITestSteps reads arbitrary workflows (and a Makefile beside them):
// never a panic, every step runs a check from the workflow's file, and a
// step is always the same as itself.
func FuzzCITestSteps(f *testing.F) {
	f.Add("on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n        env:\n          A: b\n", "test:\n\tgo test ./...\n")
	f.Add("on: [pull_request]\njobs:\n  t:\n    services: {db: {image: x}}\n    steps:\n      - run: |\n          curl x | sh\n          pytest -k 'not slow'\n", "")
	f.Add("on: pull_request\njobs:\n  t:\n    defaults: {run: {working-directory: ${{ x }}}}\n    steps:\n      - run: ./build/t ${{ y }}\n", "")
	f.Fuzz(func(t *testing.T, wf, makefile string) {
		files := map[string][]byte{".github/workflows/ci.yml": []byte(wf), "Makefile": []byte(makefile)}
		for _, s := range TestSteps(files) {
			if s.Workflow != ".github/workflows/ci.yml" || len(s.Checks) == 0 || s.Key() == "" {
				t.Fatalf("step %+v", s)
			}
			if !SameStep(s, s) {
				t.Fatalf("a step differs from itself: %+v", s)
			}
		}
		for _, p := range NamedFiles(files) {
			if p == "" || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
				t.Fatalf("named file %q", p)
			}
		}
	})
}
