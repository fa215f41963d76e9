package gitrepo

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"
)

// partialClone clones src over file:// with a --filter, as CI does to save
// the transfer; src serves filters.
func partialClone(t *testing.T, src *testRepo, filter string) *testRepo {
	t.Helper()
	src.git("config", "uploadpack.allowFilter", "true")
	dst := filepath.Join(t.TempDir(), "partial")
	src.gitIn(t.TempDir(), "", "clone", "-q", "--filter="+filter, "file://"+src.dir, dst)
	return src.at(dst)
}

// changedBlobs lists the blobs on both sides of the changes of base..head.
func changedBlobs(t *testing.T, r *Repo, base, head plumbing.Hash) []plumbing.Hash {
	t.Helper()
	changes, err := r.Diff(base, head)
	if err != nil {
		t.Fatal(err)
	}
	var out []plumbing.Hash
	for _, ch := range changes {
		for _, e := range []Entry{ch.From, ch.To} {
			if e.Path != "" && e.Mode.IsFile() {
				out = append(out, e.Hash)
			}
		}
	}
	return out
}

// missingHere counts the hashes git itself does not have, from the list of
// every object present, which git makes without fetching anything.
func missingHere(t *testing.T, g *testRepo, hs []plumbing.Hash) int {
	t.Helper()
	present := map[string]bool{}
	for _, line := range strings.Split(g.git("cat-file", "--batch-all-objects", "--batch-check=%(objectname)"), "\n") {
		present[line] = true
	}
	n := 0
	for _, h := range hs {
		if !present[h.String()] {
			n++
		}
	}
	return n
}

// TestPartialClone: in clones without blobs, or without trees, what is
// missing is fetched through git from the promisor remote as it is read.
func TestPartialClone(t *testing.T) {
	src := packedRepo(t)
	for _, filter := range []string{"blob:none", "tree:0"} {
		t.Run(filter, func(t *testing.T) {
			g := partialClone(t, src, filter)
			r := g.open()
			if !r.IsPartial() {
				t.Fatal("IsPartial() = false for a partial clone")
			}
			head, base := g.rev("HEAD"), g.rev("HEAD~4")
			objects := func() int {
				return strings.Count(g.git("cat-file", "--batch-all-objects", "--batch-check=%(objectname)"), "\n")
			}
			before := objects()
			if commits, blobs := walkRange(t, r, base, head); commits != 4 || blobs == 0 {
				t.Errorf("walked %d commits and %d blobs, want 4 commits", commits, blobs)
			}
			for _, h := range changedBlobs(t, r, base, head) {
				b, err := r.Blob(h)
				if err != nil {
					t.Fatal(err)
				}
				if want := src.git("cat-file", "blob", h.String()); strings.TrimSpace(string(b)) != want {
					t.Errorf("blob %s differs from git's", short(h))
				}
			}
			if after := objects(); after <= before {
				t.Errorf("%d objects before the reads, %d after: nothing was fetched", before, after)
			}
		})
	}
}

// TestPrefetch: the blobs of a diff are fetched in one git fetch, which
// writes one pack, and then read without any other.
func TestPrefetch(t *testing.T) {
	src := packedRepo(t)
	g := partialClone(t, src, "blob:none")
	r := g.open()
	blobs := changedBlobs(t, r, g.rev("HEAD~30"), g.rev("HEAD"))
	missing := missingHere(t, g, blobs)
	if missing < 10 {
		t.Fatalf("only %d of %d blobs missing from the clone; the test needs more", missing, len(blobs))
	}
	before := len(packFiles(t, g.dir, ".pack"))
	if err := r.Prefetch(blobs); err != nil {
		t.Fatalf("Prefetch: %v", err)
	}
	if got := len(packFiles(t, g.dir, ".pack")); got != before+1 {
		t.Errorf("%d packs after Prefetch of %d missing blobs, want %d: one fetch", got, missing, before+1)
	}
	if n := missingHere(t, g, blobs); n != 0 {
		t.Errorf("%d blobs still missing after Prefetch", n)
	}
	for _, h := range blobs {
		if _, err := r.Blob(h); err != nil {
			t.Fatalf("Blob(%s) after Prefetch: %v", short(h), err)
		}
	}
	if got := len(packFiles(t, g.dir, ".pack")); got != before+1 {
		t.Errorf("%d packs after reading the prefetched blobs, want %d", got, before+1)
	}
	// Everything is here now: nothing more is fetched.
	if err := r.Prefetch(blobs); err != nil {
		t.Errorf("second Prefetch: %v", err)
	}

	// A repository that is not a partial clone never fetches.
	full := packedRepo(t)
	fr := full.open()
	if fr.IsPartial() {
		t.Error("IsPartial() = true for a full repository")
	}
	absent := plumbing.NewHash(strings.Repeat("ab", 20))
	if err := fr.Prefetch([]plumbing.Hash{absent}); err != nil {
		t.Errorf("Prefetch in a full repository: %v", err)
	}
	if _, err := fr.Blob(absent); !errors.Is(err, plumbing.ErrObjectNotFound) || errors.Is(err, ErrNotFetched) {
		t.Errorf("Blob(absent) in a full repository = %v, want object not found", err)
	}
}

// TestPartialCloneOffline: when the promisor remote cannot be reached, a
// missing blob is an error that says so and what to do, never content.
func TestPartialCloneOffline(t *testing.T) {
	src := packedRepo(t)
	g := partialClone(t, src, "blob:none")
	r := g.open()
	blobs := changedBlobs(t, r, g.rev("HEAD~5"), g.rev("HEAD"))
	if err := os.Rename(src.dir, src.dir+".gone"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Rename(src.dir+".gone", src.dir) })

	err := r.Prefetch(blobs)
	if !errors.Is(err, ErrNotFetched) {
		t.Fatalf("Prefetch = %v, want ErrNotFetched", err)
	}
	read := 0
	for _, h := range blobs {
		b, err := r.Blob(h)
		if err == nil {
			read++ // present since the checkout
			continue
		}
		if !errors.Is(err, ErrNotFetched) || b != nil {
			t.Fatalf("Blob(%s) = %d bytes, %v; want ErrNotFetched", short(h), len(b), err)
		}
		for _, want := range []string{short(h), "partial clone", `promisor remote "origin"`, "does not appear to be a git repository", "clone without --filter"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("error spans lines: %q", err)
		}
	}
	if read == len(blobs) {
		t.Fatal("every blob was present: the test needs a missing one")
	}
}

func TestPromisorRemotes(t *testing.T) {
	tests := []struct {
		name   string
		config string
		want   []string
	}{
		{name: "git clone --filter", config: "[core]\n\trepositoryformatversion = 1\n[remote \"origin\"]\n\turl = file:///src\n\tpromisor = true\n\tpartialclonefilter = blob:none\n", want: []string{"origin"}},
		{name: "extensions.partialClone first", config: "[remote \"a\"]\n\tpromisor = yes\n[remote \"b\"]\n\tpromisor = on\n[extensions]\n\tpartialClone = b\n", want: []string{"b", "a"}},
		{name: "the last value wins", config: "[remote \"origin\"]\n\tpromisor = true\n\tpromisor = false\n", want: nil},
		{name: "no value is true", config: "[remote \"origin\"]\n\tpromisor\n", want: []string{"origin"}},
		{name: "dotted remote name", config: "[remote \"up.stream\"]\n\tPromisor = 1\n", want: []string{"up.stream"}},
		{name: "no promisor", config: "[remote \"origin\"]\n\turl = file:///src\n", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "config")
			if err := os.WriteFile(file, []byte(tt.config), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := promisorRemotes(file)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("promisorRemotes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPromisorPacksWithoutRemote: promisor packs alone do not make a partial
// clone (git fetches only from a configured promisor remote): a missing
// object is missing, and git is not run.
func TestPromisorPacksWithoutRemote(t *testing.T) {
	src := packedRepo(t)
	g := partialClone(t, src, "blob:none")
	g.git("config", "--unset", "remote.origin.promisor")
	r := g.open()
	if r.IsPartial() {
		t.Fatal("IsPartial() = true without a promisor remote")
	}
	blobs := changedBlobs(t, r, g.rev("HEAD~5"), g.rev("HEAD"))
	before := len(packFiles(t, g.dir, ".pack"))
	missing := 0
	for _, h := range blobs {
		if _, err := r.Blob(h); err != nil {
			if !errors.Is(err, plumbing.ErrObjectNotFound) || errors.Is(err, ErrNotFetched) {
				t.Errorf("Blob(%s) = %v, want object not found", short(h), err)
			}
			missing++
		}
	}
	if missing == 0 {
		t.Fatal("no blob missing: the test needs one")
	}
	if after := len(packFiles(t, g.dir, ".pack")); after != before {
		t.Errorf("%d packs before, %d after: something was fetched", before, after)
	}
}
