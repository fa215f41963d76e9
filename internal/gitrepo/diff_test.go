package gitrepo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/google/go-cmp/cmp"
)

// change is a Change without hashes, for readable expectations.
type change struct {
	Action     string
	From, To   string
	FromMode   filemode.FileMode
	ToMode     filemode.FileMode
	Similarity int
}

func summarize(cs []Change) []change {
	out := make([]change, 0, len(cs))
	for _, c := range cs {
		out = append(out, change{Action: c.Action.String(), From: c.From.Path, To: c.To.Path,
			FromMode: c.From.Mode, ToMode: c.To.Mode, Similarity: c.Similarity})
	}
	return out
}

// lines returns n distinct numbered lines.
func lines(prefix string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%s line %d: some content that is long enough\n", prefix, i)
	}
	return b.String()
}

func TestDiff(t *testing.T) {
	const reg, exe, link, sub = filemode.Regular, filemode.Executable, filemode.Symlink, filemode.Submodule
	tests := []struct {
		name   string
		before map[string]string // path -> content; "" removes
		edit   func(g *testRepo)
		stage  func(g *testRepo) // index-only edits, after git add -A
		want   []change
	}{
		{
			name:   "add modify delete",
			before: map[string]string{"keep.txt": "k\n", "mod.txt": "old\n", "gone.txt": "bye\n"},
			edit: func(g *testRepo) {
				g.write("mod.txt", "new\n")
				g.write("new.txt", "hello\n")
				g.git("rm", "-q", "gone.txt")
			},
			want: []change{
				{Action: "delete", From: "gone.txt", FromMode: reg},
				{Action: "modify", From: "mod.txt", To: "mod.txt", FromMode: reg, ToMode: reg},
				{Action: "add", To: "new.txt", ToMode: reg},
			},
		},
		{
			name:   "exact rename across directories",
			before: map[string]string{"src/a_test.go": lines("a", 20), "other.txt": "o\n"},
			edit:   func(g *testRepo) { g.mv("src/a_test.go", "pkg/b/a_test.go") },
			want: []change{
				{Action: "rename", From: "src/a_test.go", To: "pkg/b/a_test.go", FromMode: reg, ToMode: reg, Similarity: 100},
			},
		},
		{
			name:   "edited rename",
			before: map[string]string{"old_test.py": lines("x", 20)},
			edit: func(g *testRepo) {
				g.mv("old_test.py", "new_test.py")
				g.write("new_test.py", lines("x", 17)+"changed one\nchanged two\n")
			},
			want: []change{
				{Action: "rename", From: "old_test.py", To: "new_test.py", FromMode: reg, ToMode: reg, Similarity: 84},
			},
		},
		{
			name:   "rewrite is not a rename",
			before: map[string]string{"old.txt": lines("x", 20)},
			edit: func(g *testRepo) {
				g.git("rm", "-q", "old.txt")
				g.write("new.txt", lines("y", 20))
			},
			want: []change{
				{Action: "add", To: "new.txt", ToMode: reg},
				{Action: "delete", From: "old.txt", FromMode: reg},
			},
		},
		{
			name:   "identical copies pair by name",
			before: map[string]string{"a/x.txt": "same content\n", "b/y.txt": "same content\n"},
			edit: func(g *testRepo) {
				g.mv("a/x.txt", "c/x.txt")
				g.mv("b/y.txt", "c/y.txt")
			},
			want: []change{
				{Action: "rename", From: "a/x.txt", To: "c/x.txt", FromMode: reg, ToMode: reg, Similarity: 100},
				{Action: "rename", From: "b/y.txt", To: "c/y.txt", FromMode: reg, ToMode: reg, Similarity: 100},
			},
		},
		{
			name:   "empty files are not renames",
			before: map[string]string{"a/__init__.py": ""},
			edit:   func(g *testRepo) { g.mv("a", "b") },
			want: []change{
				{Action: "delete", From: "a/__init__.py", FromMode: reg},
				{Action: "add", To: "b/__init__.py", ToMode: reg},
			},
		},
		{
			name:   "directory added and removed",
			before: map[string]string{"old/x/1.txt": "1\n", "old/2.txt": "2\n"},
			edit: func(g *testRepo) {
				g.git("rm", "-q", "-r", "old")
				g.write("new/deep/er/3.txt", "3\n")
			},
			want: []change{
				{Action: "add", To: "new/deep/er/3.txt", ToMode: reg},
				{Action: "delete", From: "old/2.txt", FromMode: reg},
				{Action: "delete", From: "old/x/1.txt", FromMode: reg},
			},
		},
		{
			name:   "file replaced by a directory",
			before: map[string]string{"thing": "a file\n", "thing.go": "package x\n"},
			edit: func(g *testRepo) {
				g.git("rm", "-q", "thing")
				g.write("thing/inside.txt", "now a dir\n")
			},
			want: []change{
				{Action: "delete", From: "thing", FromMode: reg},
				{Action: "add", To: "thing/inside.txt", ToMode: reg},
			},
		},
		{
			name:   "mode change",
			before: map[string]string{"run.sh": "echo hi\n"},
			stage:  func(g *testRepo) { g.git("update-index", "--chmod=+x", "run.sh") },
			want: []change{
				{Action: "modify", From: "run.sh", To: "run.sh", FromMode: reg, ToMode: exe},
			},
		},
		{
			name:   "symlink and submodule",
			before: map[string]string{"target.txt": "t\n"},
			edit: func(g *testRepo) {
				if err := os.Symlink("target.txt", filepath.Join(g.dir, "link")); err != nil {
					t.Fatal(err)
				}
			},
			stage: func(g *testRepo) {
				g.git("update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("1", 40)+",vendor/sub")
			},
			want: []change{
				{Action: "add", To: "link", ToMode: link},
				{Action: "add", To: "vendor/sub", ToMode: sub},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newTestRepo(t)
			for p, c := range tt.before {
				g.write(p, c)
			}
			from := g.commit("before")
			if tt.edit != nil {
				tt.edit(g)
			}
			g.git("add", "-A")
			if tt.stage != nil {
				tt.stage(g)
			}
			*g.tick++
			g.git("commit", "-q", "-m", "after")
			to := g.head()
			r := g.open()
			got, err := r.Diff(from, to)
			if err != nil {
				t.Fatalf("Diff: %v", err)
			}
			if diff := cmp.Diff(tt.want, summarize(got)); diff != "" {
				t.Errorf("Diff (-want +got):\n%s", diff)
			}
			checkHashes(t, g, from, to, got)
		})
	}
}

// checkHashes asserts each entry's hash is what git has at that path.
func checkHashes(t *testing.T, g *testRepo, from, to plumbing.Hash, cs []Change) {
	t.Helper()
	for _, c := range cs {
		for _, side := range []struct {
			e      Entry
			commit plumbing.Hash
		}{{c.From, from}, {c.To, to}} {
			if side.e.Path == "" {
				continue
			}
			want := g.git("rev-parse", side.commit.String()+":"+side.e.Path)
			if side.e.Hash.String() != want {
				t.Errorf("%s: hash %s, git has %s", side.e.Path, side.e.Hash, want)
			}
		}
	}
}

func TestDiffRootCommit(t *testing.T) {
	g := newTestRepo(t)
	g.write("b.txt", "b\n")
	g.write("a/z.txt", "z\n")
	root := g.commit("root")
	r := g.open()
	got, err := r.Diff(plumbing.ZeroHash, root)
	if err != nil {
		t.Fatal(err)
	}
	want := []change{
		{Action: "add", To: "a/z.txt", ToMode: filemode.Regular},
		{Action: "add", To: "b.txt", ToMode: filemode.Regular},
	}
	if diff := cmp.Diff(want, summarize(got)); diff != "" {
		t.Errorf("Diff from the empty tree (-want +got):\n%s", diff)
	}
	same, err := r.Diff(root, root)
	if err != nil || len(same) != 0 {
		t.Errorf("Diff(root, root) = %v, %v; want no changes", same, err)
	}
}

// TestDiffRenameCandidateLimit moves many edited files at once: past the
// limit only exact renames are detected.
func TestDiffRenameCandidateLimit(t *testing.T) {
	for _, n := range []int{10, 30} {
		t.Run(fmt.Sprintf("%d files", n), func(t *testing.T) {
			g := newTestRepo(t)
			for i := 0; i < n; i++ {
				g.write(fmt.Sprintf("old/f%02d.txt", i), lines(fmt.Sprint(i), 30))
			}
			g.write("old/same.txt", "exactly the same\n")
			from := g.commit("before")
			g.mv("old", "new")
			for i := 0; i < n; i++ {
				g.write(fmt.Sprintf("new/f%02d.txt", i), lines(fmt.Sprint(i), 29)+"edited\n")
			}
			to := g.commit("after")
			r := g.open()
			got, err := r.Diff(from, to)
			if err != nil {
				t.Fatal(err)
			}
			renames := 0
			for _, c := range got {
				if c.Action == Rename {
					renames++
				}
			}
			want := n + 1
			if n*n > RenameCandidateLimit {
				want = 1 // only same.txt
			}
			if renames != want {
				t.Errorf("%d renames, want %d: %v", renames, want, summarize(got))
			}
		})
	}
}
