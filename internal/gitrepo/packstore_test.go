package gitrepo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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
// it with git's; blobs also through the mapped-pack reader, with a cache of
// cacheLimit bytes (0: the default).
func checkAllObjects(t *testing.T, g *testRepo, cacheLimit int) {
	t.Helper()
	want := gitObjects(t, g.dir)
	if len(want) < 100 {
		t.Fatalf("only %d objects", len(want))
	}
	r := g.open()
	r.mu.Lock()
	defer r.mu.Unlock()
	if cacheLimit > 0 {
		r.objs.resolved = newResolvedCache(16 << 10)
	}
	blobs := 0
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
		if w.typ == "blob" {
			b, err := r.objs.blob(h, 1<<30)
			if err != nil || !bytes.Equal(b, w.data) {
				t.Fatalf("blob(%s): %d bytes, %v; git has %d bytes", h, len(b), err, len(w.data))
			}
			blobs++
		}
	}
	if blobs == 0 {
		t.Fatal("no blobs read")
	}
	for _, p := range r.objs.packs {
		if mapsFiles && p.raw == nil {
			t.Errorf("pack %s was not read through its mapping (%v)", p.base, p.rawErr)
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
		checkAllObjects(t, g, 0)
	})
	t.Run("without rev", func(t *testing.T) {
		for _, f := range packFiles(t, g.dir, ".rev") {
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		}
		checkAllObjects(t, g, 0)
	})
	t.Run("tiny cache", func(t *testing.T) {
		checkAllObjects(t, g, 4<<10)
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
		checkAllObjects(t, g, 0)
	})
}

// TestPackStoreRefDeltas reads a pack whose deltas name their bases by hash
// (what git writes with repack.useDeltaBaseOffset=false, and what thin packs
// completed by index-pack contain).
func TestPackStoreRefDeltas(t *testing.T) {
	g := generatedRepo(t, 60, 40)
	g.git("-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq", "--depth=20")
	out := g.git("verify-pack", "-v", packFiles(t, g.dir, ".idx")[0])
	if !strings.Contains(out, "chain length") {
		t.Fatalf("no deltas in the pack:\n%s", out)
	}
	checkAllObjects(t, g, 0)
}

// TestBlobTooLargeInDeltaChain: a blob whose delta makes it larger than the
// limit is refused before the chain is resolved.
func TestBlobTooLargeInDeltaChain(t *testing.T) {
	g := newTestRepo(t)
	line := strings.Repeat("0123456789abcdef", 4) + "\n"
	g.write("grow.txt", strings.Repeat(line, 1000))
	g.commit("small")
	g.write("grow.txt", strings.Repeat(line, 1000)+strings.Repeat("x", 200)+"\n")
	g.commit("a little larger")
	g.git("repack", "-adfq")
	r := g.open()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rev := range []string{"HEAD", "HEAD~1"} {
		h := plumbing.NewHash(g.git("rev-parse", rev+":grow.txt"))
		want := g.git("cat-file", "-s", h.String())
		size, _ := strconv.Atoi(want)
		if _, err := r.objs.blob(h, int64(size-1)); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: blob with limit size-1 error = %v, want ErrTooLarge", rev, err)
		}
		if b, err := r.objs.blob(h, int64(size)); err != nil || len(b) != size {
			t.Errorf("%s: blob with limit size = %d bytes, %v", rev, len(b), err)
		}
	}
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

func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("hello, world"), []byte{12, 17, 0x90, 5, 6, ',', ' ', 'w', 'i', 'd', 'e', 0x91, 7, 5})
	f.Add([]byte("abc"), []byte{3, 3, 0x80})
	f.Add([]byte{}, []byte{0, 2, 2, 'h', 'i'})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		src, dst, ops, err := deltaSizes(delta)
		if err != nil || src != int64(len(base)) || dst < 0 || dst > 1<<20 {
			return
		}
		out := make([]byte, dst)
		if applyDelta(out, base, ops) == nil && int64(len(out)) != dst {
			t.Fatalf("applied delta made %d bytes, header says %d", len(out), dst)
		}
	})
}

// FuzzReadPacked reads an object at any offset of any bytes taken as a pack:
// errors, never a panic or a hang.
func FuzzReadPacked(f *testing.F) {
	f.Add([]byte("PACK\x00\x00\x00\x02\x00\x00\x00\x01\x3cx\x9c\xcbH\xcd\xc9\xc9\xe7\x02\x00\x08K\x02\x1f"), int64(12))
	f.Add([]byte("PACK\x00\x00\x00\x02\x00\x00\x00\x01\x60\x0cx\x9c"), int64(12))
	f.Fuzz(func(t *testing.T, pack []byte, off int64) {
		s := &packStore{resolved: newResolvedCache(1 << 20)}
		p := &storedPack{idx: &packIndex{}, raw: pack}
		_, _, _ = s.readPacked(p, off, 1<<20)
	})
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

// TestBlobConcurrent reads every blob from four goroutines at once through
// Repo.Blob, as a range's workers do (with a cache small enough to evict
// all the time), with a repack half-way that makes the store index the packs
// again: every read must match git's. CI runs it with -race.
func TestBlobConcurrent(t *testing.T) {
	g := packedRepo(t)
	want := gitObjects(t, g.dir)
	var blobs []plumbing.Hash
	for h, w := range want {
		if w.typ == "blob" {
			blobs = append(blobs, h)
		}
	}
	r := g.open()
	r.mu.Lock()
	r.objs.resolved = newResolvedCache(16 << 10)
	r.mu.Unlock()
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(blobs))
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for pass := 0; pass < 2; pass++ {
				for i := range blobs {
					h := blobs[(i*7+w*13)%len(blobs)]
					b, err := r.Blob(h)
					if err != nil || !bytes.Equal(b, want[h].data) {
						errs <- fmt.Errorf("worker %d: Blob(%s) = %d bytes, %v; git has %d bytes", w, h, len(b), err, len(want[h].data))
						return
					}
				}
				if w == 0 && pass == 0 {
					g.git("repack", "-adq")
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
