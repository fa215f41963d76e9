package gitrepo

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
)

// packedRepo makes a repository whose history is deltified into one pack by
// git gc, with one more commit left loose on top.
func packedRepo(t *testing.T) *testRepo {
	t.Helper()
	g := generatedRepo(t, 60, 40)
	g.git("-c", "pack.writeReverseIndex=true", "gc", "-q", "--aggressive", "--prune=now")
	g.git("checkout", "-q", "-f", "main")
	g.write("loose.txt", "not packed\n")
	g.commit("loose")
	return g
}

// gitObjects reads every object git knows in the repository with git
// cat-file --batch: name, type and content.
func gitObjects(t *testing.T, dir string) map[plumbing.Hash]struct {
	typ  string
	data []byte
} {
	t.Helper()
	cmd := exec.Command("git", "-C", dir, "cat-file", "--batch-all-objects", "--batch", "--unordered")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git cat-file: %v", err)
	}
	objs := map[plumbing.Hash]struct {
		typ  string
		data []byte
	}{}
	rd := bufio.NewReader(bytes.NewReader(out))
	for {
		line, err := rd.ReadString('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("cat-file header %q", line)
		}
		size, _ := strconv.Atoi(f[2])
		data := make([]byte, size+1)
		if _, err := io.ReadFull(rd, data); err != nil {
			t.Fatal(err)
		}
		objs[plumbing.NewHash(f[0])] = struct {
			typ  string
			data []byte
		}{f[1], data[:size]}
	}
	return objs
}

// checkAllObjects reads every object through the Repo's store and compares
// it with git's.
func checkAllObjects(t *testing.T, g *testRepo) {
	t.Helper()
	want := gitObjects(t, g.dir)
	if len(want) < 100 {
		t.Fatalf("only %d objects", len(want))
	}
	r := g.open()
	r.mu.Lock()
	defer r.mu.Unlock()
	for h, w := range want {
		o, err := r.objs.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			t.Fatalf("EncodedObject(%s): %v", h, err)
		}
		if o.Type().String() != w.typ {
			t.Errorf("%s: type %s, git says %s", h, o.Type(), w.typ)
		}
		rd, err := o.Reader()
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rd)
		rd.Close()
		if err != nil || !bytes.Equal(got, w.data) {
			t.Fatalf("%s: %d bytes, %v; git has %d bytes", h, len(got), err, len(w.data))
		}
		if size, err := r.objs.EncodedObjectSize(h); err != nil || size != int64(len(w.data)) {
			t.Errorf("EncodedObjectSize(%s) = %d, %v; want %d", h, size, err, len(w.data))
		}
		if err := r.objs.HasEncodedObject(h); err != nil {
			t.Errorf("HasEncodedObject(%s): %v", h, err)
		}
	}
}

func packFiles(t *testing.T, dir, ext string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*"+ext))
	if err != nil || len(m) == 0 {
		t.Fatalf("no %s files in %s: %v", ext, dir, err)
	}
	return m
}

// TestPackStoreMatchesGit reads every object of a deltified repository
// through the pack index and compares it with git cat-file, with the .rev
// file git writes, without it, and with every offset in the 64-bit table.
func TestPackStoreMatchesGit(t *testing.T) {
	g := packedRepo(t)
	t.Run("with rev", func(t *testing.T) {
		packFiles(t, g.dir, ".rev")
		checkAllObjects(t, g)
	})
	t.Run("without rev", func(t *testing.T) {
		for _, f := range packFiles(t, g.dir, ".rev") {
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		}
		checkAllObjects(t, g)
	})
	t.Run("64-bit offsets", func(t *testing.T) {
		for _, idx := range packFiles(t, g.dir, ".idx") {
			pack := strings.TrimSuffix(idx, ".idx") + ".pack"
			if err := os.Remove(idx); err != nil {
				t.Fatal(err)
			}
			// git's test hook: objects above offset 2000 get 64-bit entries (git refuses an index whose every offset is large).
			g.git("index-pack", "--index-version=2,2000", "-o", idx, pack)
		}
		idx, err := readPackIndex(packFiles(t, g.dir, ".idx")[0], "")
		if err != nil {
			t.Fatal(err)
		}
		if len(idx.off64) == 0 {
			t.Fatal("index-pack wrote no 64-bit offsets")
		}
		checkAllObjects(t, g)
	})
}

// TestPackIndexAgainstGoGit compares every lookup of the index with go-git's
// own reading of the same file.
func TestPackIndexAgainstGoGit(t *testing.T) {
	g := packedRepo(t)
	for _, name := range packFiles(t, g.dir, ".idx") {
		rev := strings.TrimSuffix(name, ".idx") + ".rev"
		idx, err := readPackIndex(name, rev)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		ref := idxfile.NewMemoryIndex()
		if err := idxfile.NewDecoder(f).Decode(ref); err != nil {
			t.Fatal(err)
		}
		f.Close()
		n, _ := idx.Count()
		if rn, _ := ref.Count(); n != rn || n == 0 {
			t.Fatalf("Count = %d, go-git %d", n, rn)
		}
		it, _ := ref.Entries()
		var last int64 = -1
		for {
			e, err := it.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			off, err := idx.FindOffset(e.Hash)
			if err != nil || off != int64(e.Offset) {
				t.Fatalf("FindOffset(%s) = %d, %v; go-git %d", e.Hash, off, err, e.Offset)
			}
			if h, err := idx.FindHash(off); err != nil || h != e.Hash {
				t.Fatalf("FindHash(%d) = %s, %v; want %s", off, h, err, e.Hash)
			}
			if crc, err := idx.FindCRC32(e.Hash); err != nil || crc != e.CRC32 {
				t.Fatalf("FindCRC32(%s) = %x, %v; go-git %x", e.Hash, crc, err, e.CRC32)
			}
			if ok, _ := idx.Contains(e.Hash); !ok {
				t.Fatalf("Contains(%s) = false", e.Hash)
			}
			last = max(last, off)
		}
		if _, err := idx.FindHash(last + 1); !errors.Is(err, plumbing.ErrObjectNotFound) {
			t.Errorf("FindHash(past the last object) error = %v", err)
		}
		missing := plumbing.NewHash(strings.Repeat("f", 40))
		if _, err := idx.FindOffset(missing); !errors.Is(err, plumbing.ErrObjectNotFound) {
			t.Errorf("FindOffset(missing) error = %v", err)
		}
		byOff, _ := idx.EntriesByOffset()
		prev := int64(-1)
		count := int64(0)
		for {
			e, err := byOff.Next()
			if err == io.EOF {
				break
			}
			if err != nil || int64(e.Offset) <= prev {
				t.Fatalf("EntriesByOffset: %v at offset %d after %d", err, e.Offset, prev)
			}
			prev = int64(e.Offset)
			count++
		}
		if count != n {
			t.Errorf("EntriesByOffset gave %d entries, want %d", count, n)
		}
		if err := idx.close(); err != nil {
			t.Error(err)
		}
	}
}

// TestPackStoreShortNames resolves abbreviations of packed and loose commits.
func TestPackStoreShortNames(t *testing.T) {
	g := packedRepo(t)
	r := g.open()
	for _, rev := range []string{"HEAD", "HEAD~1", "HEAD~30"} {
		full := g.rev(rev)
		got, err := r.Resolve(full.String()[:10])
		if err != nil || got != full {
			t.Errorf("Resolve(%s of %s) = %s, %v; want %s", full.String()[:10], rev, got, err, full)
		}
	}
}

// TestPackStoreRepackWhileOpen: a repack while the Repo is open replaces the
// pack files; reads find the objects in the new pack.
func TestPackStoreRepackWhileOpen(t *testing.T) {
	g := packedRepo(t)
	r := g.open()
	old := g.rev("HEAD~5")
	if _, err := r.Commit(old); err != nil {
		t.Fatal(err)
	}
	g.write("more.txt", "more\n")
	g.commit("more")
	g.git("repack", "-adq")
	for _, rev := range []string{"HEAD", "HEAD~1", "HEAD~20"} {
		h := g.rev(rev)
		if c, err := r.Commit(h); err != nil || c.Hash != h {
			t.Errorf("Commit(%s) after repack = %v, %v", rev, c.Hash, err)
		}
	}
}

// TestPackStoreWorktree reads the shared packs from a linked worktree.
func TestPackStoreWorktree(t *testing.T) {
	g := packedRepo(t)
	wt := filepath.Join(t.TempDir(), "wt")
	g.git("worktree", "add", "-q", wt, "HEAD~3")
	r, err := Open(wt)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h, err := r.Resolve("HEAD")
	if err != nil || h != g.rev("HEAD~3") {
		t.Fatalf("Resolve(HEAD) in worktree = %s, %v", h, err)
	}
	if b, err := r.ReadFile(h, "pkg0/sub0/file0_test.go"); err != nil || len(b) == 0 {
		t.Errorf("ReadFile in worktree: %d bytes, %v", len(b), err)
	}
}

// TestPackStoreCorruptIndex: an index this reader cannot parse leaves the
// reads to go-git, which reports the problem; nothing panics.
func TestPackStoreCorruptIndex(t *testing.T) {
	g := packedRepo(t)
	head := g.head()
	packed := g.rev("HEAD~10")
	for _, name := range packFiles(t, g.dir, ".idx") {
		if err := os.Chmod(name, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte("\xfftOc\x00\x00\x00\x02short"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := g.open()
	if _, err := r.Commit(head); err != nil {
		t.Errorf("loose commit with a corrupt pack index: %v", err)
	}
	if _, err := r.Commit(packed); err == nil {
		t.Error("packed commit read through a corrupt index")
	}
}

func FuzzParsePackIndex(f *testing.F) {
	valid := func(n int, offs []uint64) []byte {
		var b bytes.Buffer
		b.Write(idxMagic)
		b.Write([]byte{0, 0, 0, 2})
		for i := 0; i < 256; i++ {
			c := 0
			if i >= 0x10 {
				c = n
			}
			b.Write([]byte{0, 0, 0, byte(c)})
		}
		for i := 0; i < n; i++ {
			b.Write(bytes.Repeat([]byte{0x10, byte(i)}, 10))
		}
		b.Write(make([]byte, 4*n)) // CRCs
		var large []uint64
		for _, o := range offs[:n] {
			if o >= 1<<31 {
				b.Write([]byte{0x80, 0, 0, byte(len(large))})
				large = append(large, o)
			} else {
				b.Write([]byte{byte(o >> 24), byte(o >> 16), byte(o >> 8), byte(o)})
			}
		}
		for _, o := range large {
			for s := 56; s >= 0; s -= 8 {
				b.WriteByte(byte(o >> s))
			}
		}
		b.Write(make([]byte, 40))
		return b.Bytes()
	}
	f.Add(valid(3, []uint64{12, 40, 1 << 33}))
	f.Add(valid(1, []uint64{12}))
	f.Add([]byte("\xfftOc\x00\x00\x00\x02"))
	f.Fuzz(func(t *testing.T, b []byte) {
		idx, err := parsePackIndex(b)
		if err != nil {
			return
		}
		n, _ := idx.Count()
		for i := 0; i < int(n) && i < 64; i++ {
			h := idx.hashAt(i)
			off, err := idx.FindOffset(h)
			if err != nil {
				continue
			}
			_, _ = idx.FindHash(off)
			_, _ = idx.FindCRC32(h)
		}
		it, err := idx.EntriesByOffset()
		for k := 0; err == nil && k < 64; k++ {
			if _, err := it.Next(); err != nil {
				break
			}
		}
		_ = idx.withPrefix(b[:min(len(b), 3)], nil)
	})
}
