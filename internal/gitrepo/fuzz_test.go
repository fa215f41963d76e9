package gitrepo

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// FuzzResolve feeds arbitrary revisions to a small repository: Resolve must
// return a commit or an *UnknownRevisionError, and never read outside refs.
func FuzzResolve(f *testing.F) {
	g, h := revisionRepo(f)
	for _, seed := range []string{
		"HEAD", "@", "main", "side", "v1", "v1^{}", "v1^{commit}", "light~1", "HEAD~2^2",
		"main^^^", "HEAD^0", "refs/heads/main", "origin/main", h["A"].String(), h["B"].String()[:7],
		"../../config", "config", "HEAD@{1}", "main@{u}", "~", "^", "HEAD~99999", "main^{tree}",
		"refs/../HEAD", "ORIG_HEAD", ".git", "HEAD~1~1^1", "0000", "v1^{", "a..b",
	} {
		f.Add(seed)
	}
	r, err := Open(g.dir)
	if err != nil {
		f.Fatal(err)
	}
	defer r.Close()
	f.Fuzz(func(t *testing.T, rev string) {
		got, err := r.Resolve(rev)
		if err != nil {
			var unknown *UnknownRevisionError
			if !errors.As(err, &unknown) {
				t.Fatalf("Resolve(%q) error %v (%T) is not an *UnknownRevisionError", rev, err, err)
			}
			return
		}
		if _, err := r.Commit(got); err != nil {
			t.Fatalf("Resolve(%q) = %s, not a readable commit: %v", rev, got, err)
		}
	})
}

// FuzzSimilarity checks the rename score's bounds and that a file is fully
// similar to itself.
func FuzzSimilarity(f *testing.F) {
	f.Add([]byte("package a\n\nfunc TestA(t *testing.T) {}\n"), []byte("package a\n\nfunc TestB(t *testing.T) {}\n"))
	f.Add([]byte("line\r\nline\r\n"), []byte("line\nline\n"))
	f.Add([]byte{0, 1, 2, 3}, []byte{})
	f.Add([]byte(strings.Repeat("x", 200)), []byte(strings.Repeat("x", 100)))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		sa, sb := newSignature(a), newSignature(b)
		for _, s := range []int{similarity(sa, sb), similarity(sb, sa)} {
			if s < 0 || s > 100 {
				t.Fatalf("similarity %d out of [0, 100]", s)
			}
		}
		if self := similarity(sa, sa); self != 100 && !hasCRLF(a) {
			t.Fatalf("similarity of a file with itself = %d", self)
		}
	})
}

func hasCRLF(b []byte) bool { return strings.Contains(string(b), "\r\n") }

// FuzzCompareEntries checks the tree order against its definition: names
// compared as bytes, directories as if they ended in "/".
func FuzzCompareEntries(f *testing.F) {
	f.Add("a", false, "a", true)
	f.Add("a.go", false, "a", true)
	f.Add("a-b", true, "a", true)
	f.Add("foo", true, "foo0", false)
	f.Fuzz(func(t *testing.T, an string, aDir bool, bn string, bDir bool) {
		mode := func(dir bool) filemode.FileMode {
			if dir {
				return filemode.Dir
			}
			return filemode.Regular
		}
		key := func(n string, dir bool) string {
			if dir {
				return n + "/"
			}
			return n
		}
		a := object.TreeEntry{Name: an, Mode: mode(aDir)}
		b := object.TreeEntry{Name: bn, Mode: mode(bDir)}
		got := sign(compareEntries(&a, &b))
		want := strings.Compare(key(an, aDir), key(bn, bDir))
		if got != want {
			t.Fatalf("compareEntries(%q dir=%v, %q dir=%v) = %d, want %d", an, aDir, bn, bDir, got, want)
		}
	})
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}
