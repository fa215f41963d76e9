package analyze

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
		for _, s := range CITestSteps(files) {
			if s.Workflow != ".github/workflows/ci.yml" || len(s.Checks) == 0 || s.Key() == "" {
				t.Fatalf("step %+v", s)
			}
			if !SameCIStep(s, s) {
				t.Fatalf("a step differs from itself: %+v", s)
			}
		}
		for _, p := range CINamedFiles(files) {
			if p == "" || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
				t.Fatalf("named file %q", p)
			}
		}
	})
}

// FuzzJSSetupFiles reads arbitrary runner configurations: never a panic,
// never a path outside the repository.
func FuzzJSSetupFiles(f *testing.F) {
	f.Add("vitest.config.ts", "export default { test: { setupFiles: ['./a.ts', `b`], globalSetup: './g.ts' } }")
	f.Add("package.json", `{"jest": {"setupFilesAfterEnv": ["<rootDir>/s.js"]}}`)
	f.Add("jest.config.js", "module.exports = { setupFiles: [...base, '../x.js'] }")
	f.Fuzz(func(t *testing.T, name, data string) {
		if name == "" {
			return
		}
		for _, p := range JSSetupFiles(name, []byte(data)) {
			if p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
				t.Fatalf("setup file %q outside the repository", p)
			}
		}
	})
}
