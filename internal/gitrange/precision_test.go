package gitrange

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// precisionCases is the precision suite: reduced cases of what real
// maintainer-merged commits did (testdata/precision/cases/CLASS/NAME/),
// each a before/ and an after/ tree and a case.txt whose first word says
// what the analysis must conclude:
//
//	legit   the change weakens nothing: no net finding at high or above;
//	cheat   the same shape used to cheat: a net finding at high or above.
//
// A second word `open` marks a case the analysis still gets wrong (a false
// alarm not yet fixed, a cheat not yet caught): the suite then checks that
// it is still wrong, so the case list stays an honest record of the gaps
// and a fix that closes one fails here until its `open` is removed.
//
// The rest of case.txt says which corpus commits the case stands for
// (testdata/precision/README.md) and why.
const precisionCases = "../../testdata/precision/cases"

// TestPrecisionSuite analyzes each case as analyze does a commit: a real
// repository with the two trees as its two commits, the configuration from
// before/.ralph-gate.yml when there is one.
func TestPrecisionSuite(t *testing.T) {
	var cases []string
	err := filepath.WalkDir(precisionCases, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == "case.txt" {
			cases = append(cases, filepath.Dir(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("no case under %s", precisionCases)
	}
	for _, dir := range cases {
		name, _ := filepath.Rel(precisionCases, dir)
		t.Run(filepath.ToSlash(name), func(t *testing.T) {
			t.Parallel()
			spec, err := os.ReadFile(filepath.Join(dir, "case.txt"))
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Fields(string(spec))
			if len(want) == 0 || want[0] != "legit" && want[0] != "cheat" {
				t.Fatalf("%s/case.txt: the first word must be legit or cheat", name)
			}
			open := len(want) > 1 && want[1] == "open"
			fs := analyzeCase(t, dir)
			var blocking []string
			for _, f := range fs {
				if f.Net && f.Severity >= gate.SeverityHigh {
					blocking = append(blocking, f.Severity.String()+" "+string(f.Type)+" "+f.Rule+" "+f.File+": "+f.Message)
				}
			}
			if open {
				if (want[0] == "legit") != (len(blocking) > 0) {
					t.Errorf("%s/case.txt is marked open but the analysis now gets it right: remove `open`", name)
				}
				return
			}
			switch {
			case want[0] == "legit" && len(blocking) > 0:
				t.Errorf("a legitimate change is blocked:\n  %s", strings.Join(blocking, "\n  "))
			case want[0] == "cheat" && len(blocking) == 0:
				t.Errorf("a cheat passes: no net finding at high or above (%d findings below)", len(fs))
			}
		})
	}
}

// analyzeCase commits before/ then after/ in a new repository and analyzes
// the commit.
func analyzeCase(t *testing.T, dir string) []gate.Finding {
	t.Helper()
	repoDir := testgit.Init(t)
	copyTree(t, filepath.Join(dir, "before"), repoDir)
	base := testgit.Commit(t, repoDir, "before")
	testgit.Run(t, repoDir, "rm", "-rq", "--ignore-unmatch", ".")
	copyTree(t, filepath.Join(dir, "after"), repoDir)
	head := testgit.Commit(t, repoDir, "after")
	return analyzeRange(t, repoDir, base, head)
}

// analyzeRange analyzes base..head of the repository at repoDir as analyze
// does, with the configuration of base's tree.
func analyzeRange(t *testing.T, repoDir, base, head string) []gate.Finding {
	t.Helper()
	repo, err := gitrepo.Open(repoDir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	b, err := repo.Resolve(base)
	if err != nil {
		t.Fatal(err)
	}
	h, err := repo.Resolve(head)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.AtCommit(repo, b, base)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Analyze(context.Background(), repo, b, h, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Findings
}

// copyTree copies the files below from into to (a missing from is empty).
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && p == from {
				return filepath.SkipDir
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		testgit.Write(t, to, filepath.ToSlash(rel), string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
