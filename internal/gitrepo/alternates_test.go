package gitrepo

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"
)

// cloneWith clones src into a new directory with git clone and extra flags,
// and returns the clone with src's clock.
func cloneWith(t *testing.T, src *testRepo, flags ...string) *testRepo {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "clone")
	src.gitIn(t.TempDir(), "", append(append([]string{"clone", "-q"}, flags...), src.dir, dst)...)
	return src.at(dst)
}

// writeAlternates replaces a repository's objects/info/alternates.
func writeAlternates(t *testing.T, g *testRepo, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(g.dir, ".git", "objects", "info", "alternates"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ownObjects counts the objects a repository holds itself, loose or packed:
// zero for a fresh `git clone --shared`.
func ownObjects(t *testing.T, g *testRepo) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(filepath.Join(g.dir, ".git", "objects"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Base(filepath.Dir(p)) != "info" {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestAlternates reads every object of repositories that borrow them from
// others through objects/info/alternates, as git writes it (clone --shared,
// clone --reference) and as people edit it (a relative path, quoting,
// comments, a chain of alternates), and walks a range as the analyzer does.
func TestAlternates(t *testing.T) {
	tests := []struct {
		name string
		// make builds the repository to read from src, a packed one whose
		// last commit is loose; src is not changed.
		make func(t *testing.T, src *testRepo) *testRepo
	}{
		{name: "clone --shared", make: func(t *testing.T, src *testRepo) *testRepo {
			return cloneWith(t, src, "--shared")
		}},
		{name: "clone --reference over file://", make: func(t *testing.T, src *testRepo) *testRepo {
			// A local path would hard-link the objects instead.
			dst := filepath.Join(t.TempDir(), "clone")
			src.gitIn(t.TempDir(), "", "clone", "-q", "--reference", src.dir, "file://"+src.dir, dst)
			return src.at(dst)
		}},
		{name: "relative path", make: func(t *testing.T, src *testRepo) *testRepo {
			c := cloneWith(t, src, "--shared")
			rel, err := filepath.Rel(filepath.Join(c.dir, ".git", "objects"), filepath.Join(src.dir, ".git", "objects"))
			if err != nil {
				t.Fatal(err)
			}
			writeAlternates(t, c, rel+"\n")
			return c
		}},
		{name: "quoted, with comments and blank lines", make: func(t *testing.T, src *testRepo) *testRepo {
			c := cloneWith(t, src, "--shared")
			writeAlternates(t, c, "# the CI cache\n\n\""+filepath.Join(src.dir, ".git", "objects")+"/\"\n")
			return c
		}},
		{name: "alternates of an alternate", make: func(t *testing.T, src *testRepo) *testRepo {
			mid := cloneWith(t, src, "--shared")
			mid.write("mid.txt", "only in the middle repository\n")
			mid.commit("in the middle")
			leaf := cloneWith(t, mid, "--shared")
			// The leaf names only the middle repository, which names src.
			b, err := os.ReadFile(filepath.Join(leaf.dir, ".git", "objects", "info", "alternates"))
			if err != nil || strings.TrimSpace(string(b)) != filepath.Join(mid.dir, ".git", "objects") {
				t.Fatalf("leaf's alternates = %q, %v", b, err)
			}
			return leaf
		}},
		{name: "the same alternate twice", make: func(t *testing.T, src *testRepo) *testRepo {
			c := cloneWith(t, src, "--shared")
			objs := filepath.Join(src.dir, ".git", "objects")
			writeAlternates(t, c, objs+"\n"+objs+"/\n")
			return c
		}},
	}
	// Every case borrows from the same repository and leaves it as it is.
	src := packedRepo(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.make(t, src)
			if n := ownObjects(t, g); n != 0 {
				t.Fatalf("the clone holds %d objects itself; the test needs them all in alternates", n)
			}
			g.write("own.txt", "a commit of the clone's own\n")
			own := g.commit("own commit")
			checkAllObjects(t, g, 0)

			r := g.open()
			head, err := r.Resolve("HEAD")
			if err != nil || head != own {
				t.Fatalf("Resolve(HEAD) = %s, %v; want %s", head, err, own)
			}
			// A short name that only an alternate's pack holds.
			deep := g.rev("HEAD~20")
			if got, err := r.Resolve(deep.String()[:9]); err != nil || got != deep {
				t.Errorf("Resolve(%s) = %s, %v; want %s", deep.String()[:9], got, err, deep)
			}
			if commits, blobs := walkRange(t, r, g.rev("HEAD~25"), head); commits != 25 || blobs == 0 {
				t.Errorf("walked %d commits and %d blobs, want 25 commits", commits, blobs)
			}
		})
	}
}

// TestAlternatesTooDeep: git follows alternates of alternates five levels
// deep and no further; an object beyond is missing here as it is for git.
func TestAlternatesTooDeep(t *testing.T) {
	src := newTestRepo(t)
	src.write("f.txt", "deepest\n")
	deepest := src.commit("deepest")
	// git clone refuses to make such a chain: each repository borrows from
	// the one before through a list written by hand.
	chain := []*testRepo{src}
	for i := 1; i <= 7; i++ {
		next := src.at(t.TempDir())
		next.git("init", "-q")
		writeAlternates(t, next, filepath.Join(chain[i-1].dir, ".git", "objects")+"\n")
		chain = append(chain, next)
	}
	for _, tt := range []struct {
		depth int
		found bool
	}{{depth: 6, found: true}, {depth: 7, found: false}} {
		g := chain[tt.depth]
		_, gitErr := exec.Command("git", "-C", g.dir, "cat-file", "-e", deepest.String()).CombinedOutput()
		if (gitErr == nil) != tt.found {
			t.Fatalf("git at depth %d: found %v, the test expects %v", tt.depth, gitErr == nil, tt.found)
		}
		_, err := g.open().Commit(deepest)
		switch {
		case tt.found && err != nil:
			t.Errorf("depth %d: %v, want the commit as git reads it", tt.depth, err)
		case !tt.found && !errors.Is(err, plumbing.ErrObjectNotFound):
			t.Errorf("depth %d: %v, want object not found as git reports", tt.depth, err)
		}
	}
}

// TestAlternateMissing: an alternate that no longer exists (a CI cache that
// was evicted) is named in the error of the object that is not found.
func TestAlternateMissing(t *testing.T) {
	src := newTestRepo(t)
	src.write("f.txt", "1\n")
	src.commit("one")
	c := cloneWith(t, src, "--shared")
	gone := filepath.Join(t.TempDir(), "evicted", "objects")
	writeAlternates(t, c, gone+"\n")
	r := c.open()
	_, err := r.Resolve("HEAD")
	if err == nil || !strings.Contains(err.Error(), gone) || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("Resolve(HEAD) = %v, want an error naming %s", err, gone)
	}
}

func TestParseAlternates(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{name: "absolute", in: "/cache/repo.git/objects\n", want: []string{"/cache/repo.git/objects"}},
		{name: "relative, no newline", in: "../../other/.git/objects", want: []string{"../../other/.git/objects"}},
		{name: "comments and blanks", in: "# x\n\n/a/objects\n#/b\n", want: []string{"/a/objects"}},
		{name: "quoted with escapes", in: "\"/with space/\\303\\251t\\303\\251/objects\"\n", want: []string{"/with space/été/objects"}},
		{name: "trailing slashes", in: "/a/objects//\n", want: []string{"/a/objects"}},
		{name: "CRLF", in: "/a/objects\r\n/b/objects\r\n", want: []string{"/a/objects", "/b/objects"}},
		{name: "empty", in: "", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, parseAlternates([]byte(tt.in))); diff != "" {
				t.Errorf("parseAlternates (-want +got):\n%s", diff)
			}
		})
	}
}
