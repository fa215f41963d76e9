package ci

import (
	"os"
	"testing"
)

// progWorkflow is a workflow with a test job, a lint step and a nightly
// job allowed to fail; analyze's tests edit it too.
func progWorkflow(tb testing.TB) string {
	tb.Helper()
	b, err := os.ReadFile("testdata/workflow.yml")
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func FuzzWorkflowScripts(f *testing.F) {
	f.Add([]byte(progWorkflow(f)))
	f.Add([]byte("on: push\njobs: 3\n"))
	f.Add([]byte("jobs:\n  a:\n    steps:\n      - run: |\n          x || true\n"))
	f.Add([]byte(".ONESHELL:\n.SHELLFLAGS := -ec\n.IGNORE: t\nMAKEFLAGS += ik\nSHELL := /bin/true\nt u: v # c\n\tgo test ./...\n\t-exit 0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		scripts, _, err := workflowScripts(data)
		if err != nil {
			return
		}
		for _, s := range scripts {
			if s.line < 1 {
				t.Fatalf("script line %d", s.line)
			}
		}
		_ = makeRecipes(data)
		_ = shebangOpts(data)
	})
}

// TestScriptsWithExpressions: ${{ ... }} in a step is substituted by the
// runner before the shell runs; the script still parses and its checks are
// followed (express's ci.yml has both).
func TestScriptsWithExpressions(t *testing.T) {
	const base = "on: [push, pull_request]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - shell: bash\n        run: |\n          if [[ \"$(cut -d. -f1 <<< \"${{ matrix.node-version }}\")\" -lt 12 ]]; then\n            echo old\n          fi\n          npm run test-ci\n          cp coverage/lcov.info \"coverage/${{ matrix.name }}.lcov\"\n"
	f := readCI(".github/workflows/ci.yml", []byte(base), CIWorkflow)
	if len(f.unparsed) != 0 || !f.reaching()["npm run test-ci"] {
		t.Fatalf("unparsed %v, reaching %v", f.unparsed, f.reaching())
	}
}
