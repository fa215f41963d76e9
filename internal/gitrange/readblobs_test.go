package gitrange

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// TestReadBlobsParallel reads a change's blobs on several goroutines, from a
// packed repository (the shared, mapped path) and from loose objects (the
// locked one): each read holds its own blob's content or reason, as read one
// at a time. CI runs it with -race.
func TestReadBlobsParallel(t *testing.T) {
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	var want []string
	for i := 0; i < 40; i++ {
		content := fmt.Sprintf("package p\n\n// file %d\n%s", i, strings.Repeat(fmt.Sprintf("var v%d = %d\n", i, i), i*50))
		if i == 7 {
			content = "binary\x00content"
		}
		p := filepath.Join(dir, fmt.Sprintf("f%02d.go", i))
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, content)
	}
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-q", "-m", "files")
	for _, packed := range []bool{false, true} {
		if packed {
			gitT(t, dir, "gc", "-q", "--prune=now")
		}
		r, err := gitrepo.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		src := &source{repo: r, cfg: config.Default()}
		var reads []blobRead
		for i := range want {
			h := plumbing.NewHash(gitT(t, dir, "rev-parse", fmt.Sprintf("HEAD:f%02d.go", i)))
			reads = append(reads, blobRead{file: i, hash: h}, blobRead{file: i, old: true, hash: h})
		}
		if len(reads) < minParallelReads {
			t.Fatalf("%d reads do not go parallel", len(reads))
		}
		src.readBlobs(reads)
		for _, rd := range reads {
			switch {
			case rd.file == 7:
				if rd.skip != "binary file: skipped" || rd.data != nil {
					t.Errorf("packed=%v: the binary file read as %q, skip %q", packed, rd.data, rd.skip)
				}
			case string(rd.data) != want[rd.file] || rd.skip != "":
				t.Errorf("packed=%v: f%02d.go read as %d bytes (skip %q), want %d", packed, rd.file, len(rd.data), rd.skip, len(want[rd.file]))
			}
		}
		r.Close()
	}
}
