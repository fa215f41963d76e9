package gitrange

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// TestPartialClone: in a clone without blobs, the blobs a range needs are
// fetched from the promisor remote and the deleted test is found; with the
// remote gone, the analysis fails with gitrepo.ErrNotFetched instead of
// reading the missing files as unreadable (or as empty).
func TestPartialClone(t *testing.T) {
	src := testgit.Init(t)
	testgit.Write(t, src, "calc_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n\nfunc TestSub(t *testing.T) {\n\tif 1-1 != 0 {\n\t\tt.Fatal(\"sub\")\n\t}\n}\n")
	base := plumbing.NewHash(testgit.Commit(t, src, "base"))
	testgit.Write(t, src, "calc_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n")
	head := plumbing.NewHash(testgit.Commit(t, src, "drop TestSub"))
	gitT(t, src, "config", "uploadpack.allowFilter", "true")

	clone := func(t *testing.T) *gitrepo.Repo {
		dst := filepath.Join(t.TempDir(), "partial")
		gitT(t, t.TempDir(), "clone", "-q", "--filter=blob:none", "file://"+src, dst)
		r, err := gitrepo.Open(dst)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = r.Close() })
		return r
	}
	deleted := func(fs []gate.Finding) bool {
		for _, f := range fs {
			if f.Type == gate.TestDeletion && f.Test == "TestSub" {
				return true
			}
		}
		return false
	}

	t.Run("remote reachable", func(t *testing.T) {
		r := clone(t)
		res, err := Analyze(context.Background(), r, base, head, nil, nil)
		if err != nil {
			t.Fatalf("Analyze: %v", err)
		}
		if !deleted(res.Findings) {
			t.Errorf("no test_deletion of TestSub: %+v", res.Findings)
		}
	})
	t.Run("remote gone", func(t *testing.T) {
		r := clone(t)
		if err := os.Rename(src, src+".gone"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Rename(src+".gone", src) })
		if res, err := Analyze(context.Background(), r, base, head, nil, nil); !errors.Is(err, gitrepo.ErrNotFetched) {
			t.Errorf("Analyze = %v, %v; want ErrNotFetched", res, err)
		}
		if fs, _, err := Net(context.Background(), r, base, head, nil); !errors.Is(err, gitrepo.ErrNotFetched) {
			t.Errorf("Net = %v, %v; want ErrNotFetched", fs, err)
		}
	})
}
