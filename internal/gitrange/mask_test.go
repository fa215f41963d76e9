package gitrange

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testgit"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/analyze"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/testscan/golang"
)

// bigTestFile is a test file of n tests, a helper and a table, over 32 KiB
// for n >= 200, so that a single commit's analysis masks it.
func bigTestFile(n int, edit func(i int, body string) string) string {
	var b strings.Builder
	b.WriteString("package calc\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/require\"\n)\n\n")
	b.WriteString("var cases = []struct{ in, want int }{\n\t{1, 2},\n\t{2, 4},\n}\n\n")
	b.WriteString("func checkDouble(t *testing.T, in, want int) {\n\tt.Helper()\n\tif got := Double(in); got != want {\n\t\tt.Fatalf(\"Double(%d) = %d\", in, got)\n\t}\n}\n\n")
	for i := 0; i < n; i++ {
		body := fmt.Sprintf("func TestDouble%03d(t *testing.T) {\n\tgot := Double(%d)\n\tif got != %d {\n\t\tt.Errorf(\"Double(%d) = %%d, want %d\", got)\n\t}\n\trequire.Equal(t, %d, Double(%d))\n\tcheckDouble(t, %d, %d)\n}\n\n", i, i, 2*i, i, 2*i, 2*i, i, i, 2*i)
		if edit != nil {
			body = edit(i, body)
		}
		b.WriteString(body)
	}
	b.WriteString("func TestTable(t *testing.T) {\n\tfor _, c := range cases {\n\t\tt.Run(fmt.Sprint(c.in), func(t *testing.T) {\n\t\t\trequire.Equal(t, c.want, Double(c.in))\n\t\t})\n\t}\n}\n")
	return b.String()
}

func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return testgit.Run(t, dir, args...)
}

// TestSingleCommitMasking commits edits to a large test file, each its own
// commit, and analyzes each commit alone (masked) and with masking off: the
// findings must be the same, and the masked path must have been taken.
func TestSingleCommitMasking(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	write := func(content string) {
		if err := os.WriteFile(filepath.Join(dir, "calc_test.go"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string) {
		gitT(t, dir, "add", "-A")
		gitT(t, dir, "commit", "-q", "-m", msg)
	}
	base := bigTestFile(300, nil)
	write(base)
	commit("base")
	edits := map[string]string{
		"test deleted": bigTestFile(300, func(i int, b string) string {
			if i == 150 {
				return ""
			}
			return b
		}),
		"test skipped":       strings.Replace(base, "func TestDouble007(t *testing.T) {\n", "func TestDouble007(t *testing.T) {\n\tt.Skip(\"later\")\n", 1),
		"assertion removed":  strings.Replace(base, "\trequire.Equal(t, 20, Double(10))\n", "", 1),
		"assertion weakened": strings.Replace(base, "\trequire.Equal(t, 20, Double(10))\n", "\trequire.NotNil(t, Double(10))\n", 1),
		"test renamed":       strings.Replace(base, "func TestDouble042(", "func TestDoubleFortyTwo(", 1),
		"helper weakened":    strings.Replace(base, "\t\tt.Fatalf(\"Double(%d) = %d\", in, got)\n", "\t\tt.Logf(\"Double(%d) = %d\", in, got)\n", 1),
		"table row removed":  strings.Replace(base, "\t{2, 4},\n", "", 1),
		"import added":       strings.Replace(strings.Replace(base, "import (\n", "import (\n\t\"fmt\"\n", 1), "func TestDouble009(t *testing.T) {\n", "func TestDouble009(t *testing.T) {\n\tt.Skip(fmt.Sprint(\"x\"))\n", 1),
	}
	masked := 0
	for name, content := range edits {
		write(content)
		commit(name)
		r, err := gitrepo.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		head, _ := r.Resolve("HEAD")
		c, err := r.Commit(head)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, ok := golang.MaskUnchanged([]byte(base), []byte(content), true, 32<<10); ok {
			masked++
		}
		analyzeOne := func(mask bool) []analyze.CommitFindings {
			an := analyze.New(nil)
			if mask {
				an.MaskUnchanged()
			}
			per, err := analyzeCommits(context.Background(), an, &source{repo: r, cfg: config.Default()}, []gitrepo.Commit{c}, nil, make(chan struct{}))
			if err != nil {
				t.Fatal(err)
			}
			return per
		}
		whole, part := analyzeOne(false), analyzeOne(true)
		if quiet := name == "test renamed" || name == "table row removed"; !quiet && len(whole[0].Findings) == 0 {
			t.Errorf("%s: no findings at all", name)
		}
		if diff := cmp.Diff(whole, part); diff != "" {
			t.Errorf("%s: masked analysis differs (-whole +masked):\n%s", name, diff)
		}
		res, err := Analyze(context.Background(), r, c.Parent, c.Hash, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Findings) != len(whole[0].Findings) {
			t.Errorf("%s: Analyze found %d findings, the commit's analysis %d", name, len(res.Findings), len(whole[0].Findings))
		}
		r.Close()
		// Back to the base for the next edit.
		write(base)
		commit("restore")
	}
	if masked < 5 {
		t.Errorf("only %d of %d edits were masked", masked, len(edits))
	}
}
