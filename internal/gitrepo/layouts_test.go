package gitrepo

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPackedLayouts reads repositories whose every object is packed, under a
// multi-pack-index and a commit-graph, with no loose object left: the shapes
// `git maintenance` and servers leave behind.
func TestPackedLayouts(t *testing.T) {
	tests := []struct {
		name string
		pack func(g *testRepo)
	}{
		{name: "repack --write-midx and commit-graph", pack: func(g *testRepo) {
			g.git("repack", "-q", "-a", "-d", "--write-midx")
			g.git("commit-graph", "write", "--reachable")
		}},
		{name: "several packs under one multi-pack-index", pack: func(g *testRepo) {
			for i := 0; i < 3; i++ {
				g.write("extra.txt", string(rune('a'+i))+"\n")
				g.commit("extra")
				g.git("repack", "-q", "-d") // the loose objects into one more pack
			}
			g.git("multi-pack-index", "write")
			g.git("commit-graph", "write", "--reachable", "--split")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := packedRepo(t)
			tt.pack(g)
			g.git("prune", "--expire=now")
			for _, f := range []string{"objects/pack/multi-pack-index", "objects/info"} {
				if _, err := os.Stat(filepath.Join(g.dir, ".git", f)); err != nil {
					t.Fatalf("git wrote no %s: %v", f, err)
				}
			}
			if loose := g.git("count-objects"); loose != "0 objects, 0 kilobytes" {
				t.Fatalf("loose objects left: %s", loose)
			}
			checkAllObjects(t, g, 0)
			r := g.open()
			if commits, _ := walkRange(t, r, g.rev("HEAD~20"), g.head()); commits != 20 {
				t.Errorf("walked %d commits, want 20", commits)
			}
		})
	}
}

// TestPackedRefs resolves branches and tags that exist only in packed-refs
// (git pack-refs --all, as git gc does), the loop's iteration tags among
// them, and writes a tag beside them.
func TestPackedRefs(t *testing.T) {
	g := newTestRepo(t)
	g.write("f.txt", "1\n")
	first := g.commit("first")
	g.git("tag", "ralph/ralph-fix-0123abcd/iter-001")
	g.git("tag", "-a", "-m", "annotated", "v1")
	g.git("checkout", "-q", "-b", "agent/fix")
	g.write("f.txt", "2\n")
	second := g.commit("second")
	g.git("tag", "ralph/ralph-fix-0123abcd/iter-002")
	g.git("update-ref", "refs/remotes/origin/main", first.String())
	g.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
	g.git("pack-refs", "--all")
	if out := g.git("for-each-ref", "--format=%(refname)", "refs/heads", "refs/tags"); out == "" {
		t.Fatal("no refs")
	}
	for _, dir := range []string{"refs/heads", "refs/tags"} {
		var files []string
		_ = filepath.WalkDir(filepath.Join(g.dir, ".git", dir), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return nil
		})
		if len(files) != 0 {
			t.Fatalf("loose refs left after pack-refs: %v", files)
		}
	}
	r := g.open()
	for _, tt := range []struct{ rev, want string }{
		{"main", first.String()},
		{"agent/fix", second.String()},
		{"refs/heads/agent/fix", second.String()},
		{"HEAD", second.String()},
		{"v1", first.String()},
		{"ralph/ralph-fix-0123abcd/iter-001", first.String()},
		{"ralph/ralph-fix-0123abcd/iter-002~1", first.String()},
		{"origin/main", first.String()},
	} {
		got, err := r.Resolve(tt.rev)
		if err != nil || got.String() != tt.want {
			t.Errorf("Resolve(%s) = %s, %v; want %s", tt.rev, got, err, tt.want)
		}
	}
	if b, err := r.DefaultBranch(); err != nil || b != "origin/main" {
		t.Errorf("DefaultBranch() = %q, %v; want origin/main", b, err)
	}
	if b, err := r.HeadBranch(); err != nil || b != "agent/fix" {
		t.Errorf("HeadBranch() = %q, %v; want agent/fix", b, err)
	}
	// A packed tag at the same commit is kept; at another it is refused.
	if err := r.SetTag("ralph/ralph-fix-0123abcd/iter-002", second); err != nil {
		t.Errorf("SetTag over the same packed tag: %v", err)
	}
	if err := r.SetTag("ralph/ralph-fix-0123abcd/iter-001", second); !errors.Is(err, ErrTagExists) {
		t.Errorf("SetTag over another packed tag: %v, want ErrTagExists", err)
	}
	if err := r.SetTag("ralph/ralph-fix-0123abcd/iter-003", second); err != nil {
		t.Fatalf("SetTag of a new tag: %v", err)
	}
	got := g.git("for-each-ref", "--format=%(refname) %(objectname)", "refs/tags/ralph")
	want := "refs/tags/ralph/ralph-fix-0123abcd/iter-001 " + first.String() + "\n" +
		"refs/tags/ralph/ralph-fix-0123abcd/iter-002 " + second.String() + "\n" +
		"refs/tags/ralph/ralph-fix-0123abcd/iter-003 " + second.String()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tags as git reads them (-want +got):\n%s", diff)
	}
}
