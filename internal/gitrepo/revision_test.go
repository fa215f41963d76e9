package gitrepo

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"
)

// revisionRepo builds: main A-B-M (M merges side's S1-S2 from A) -C, tags
// light (B), v1 (annotated, C), v1-of-v1 (annotated tag of v1), blobtag (a
// blob); and a clone that has origin/main.
func revisionRepo(t testing.TB) (*testRepo, map[string]plumbing.Hash) {
	g := newTestRepo(t)
	h := map[string]plumbing.Hash{}
	g.write("f.txt", "a\n")
	h["A"] = g.commit("A")
	g.git("checkout", "-q", "-b", "side")
	g.write("s.txt", "s1\n")
	h["S1"] = g.commit("S1")
	g.write("s.txt", "s2\n")
	h["S2"] = g.commit("S2")
	g.git("checkout", "-q", "main")
	g.write("f.txt", "b\n")
	h["B"] = g.commit("B")
	h["M"] = g.merge("side", "M")
	g.write("f.txt", "c\n")
	h["C"] = g.commit("C")
	g.git("tag", "light", h["B"].String())
	g.git("tag", "-a", "-m", "release", "v1", h["C"].String())
	g.git("tag", "-a", "-m", "again", "v1-of-v1", "v1")
	blob := g.git("hash-object", "-w", "f.txt")
	g.git("tag", "blobtag", blob)
	h["blob"] = plumbing.NewHash(blob)
	return g, h
}

func TestResolve(t *testing.T) {
	g, h := revisionRepo(t)
	r := g.open()
	clone := filepath.Join(t.TempDir(), "clone")
	g.gitIn(t.TempDir(), "", "clone", "-q", g.dir, clone)
	rc := g.at(clone).open()

	tests := []struct {
		name string
		repo *Repo
		rev  string
		want plumbing.Hash
	}{
		{name: "full sha", rev: h["B"].String(), want: h["B"]},
		{name: "full sha upper case", rev: strings.ToUpper(h["B"].String()), want: h["B"]},
		{name: "short sha", rev: h["S1"].String()[:10], want: h["S1"]},
		{name: "short sha odd length", rev: h["S1"].String()[:9], want: h["S1"]},
		{name: "HEAD", rev: "HEAD", want: h["C"]},
		{name: "at sign", rev: "@", want: h["C"]},
		{name: "branch", rev: "main", want: h["C"]},
		{name: "other branch", rev: "side", want: h["S2"]},
		{name: "full ref", rev: "refs/heads/side", want: h["S2"]},
		{name: "heads prefix", rev: "heads/side", want: h["S2"]},
		{name: "lightweight tag", rev: "light", want: h["B"]},
		{name: "annotated tag peeled", rev: "v1", want: h["C"]},
		{name: "tag of a tag", rev: "v1-of-v1", want: h["C"]},
		{name: "tags prefix", rev: "tags/v1", want: h["C"]},
		{name: "peel suffix", rev: "v1^{commit}", want: h["C"]},
		{name: "empty peel suffix", rev: "v1^{}", want: h["C"]},
		{name: "tilde", rev: "HEAD~", want: h["M"]},
		{name: "tilde n", rev: "HEAD~2", want: h["B"]},
		{name: "caret", rev: "HEAD^", want: h["M"]},
		{name: "caret caret", rev: "HEAD^^", want: h["B"]},
		{name: "second parent", rev: "main~1^2", want: h["S2"]},
		{name: "second parent then tilde", rev: "M^2~1", want: h["S1"]},
		{name: "caret zero", rev: "main^0", want: h["C"]},
		{name: "tag then tilde", rev: "v1~3", want: h["A"]},
		{name: "remote branch", repo: rc, rev: "origin/main", want: h["C"]},
		{name: "remote HEAD", repo: rc, rev: "origin", want: h["C"]},
		{name: "remotes prefix", repo: rc, rev: "remotes/origin/side", want: h["S2"]},
		{name: "full remote ref", repo: rc, rev: "refs/remotes/origin/side", want: h["S2"]},
	}
	// M is not a ref: name it by its short sha in the cases that use it.
	for i := range tests {
		tests[i].rev = strings.Replace(tests[i].rev, "M^", h["M"].String()[:12]+"^", 1)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := tt.repo
			if repo == nil {
				repo = r
			}
			got, err := repo.Resolve(tt.rev)
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.rev, err)
			}
			if got != tt.want {
				t.Errorf("Resolve(%q) = %s, want %s", tt.rev, got, tt.want)
			}
		})
	}
}

func TestResolveUnknown(t *testing.T) {
	g, h := revisionRepo(t)
	r := g.open()
	tests := []struct {
		name    string
		rev     string
		wantMsg string
	}{
		{name: "empty", rev: "", wantMsg: `unknown revision ""`},
		{name: "no such branch", rev: "nope", wantMsg: `unknown revision "nope"`},
		{name: "missing full sha", rev: strings.Repeat("ab", 20), wantMsg: `unknown revision "` + strings.Repeat("ab", 20) + `"`},
		{name: "missing short sha", rev: "0000000", wantMsg: `unknown revision "0000000"`},
		{name: "too short sha", rev: h["B"].String()[:3], wantMsg: `unknown revision "` + h["B"].String()[:3] + `"`},
		{name: "past the root", rev: "HEAD~10", wantMsg: "has 0 parent(s), no parent 1"},
		{name: "no third parent", rev: "main~1^3", wantMsg: "has 2 parent(s), no parent 3"},
		{name: "blob", rev: "blobtag", wantMsg: "not a commit"},
		{name: "blob sha", rev: h["blob"].String(), wantMsg: "not a commit"},
		{name: "path escape", rev: "../../config", wantMsg: `unknown revision "../../config"`},
		{name: "git file name", rev: "config", wantMsg: `unknown revision "config"`},
		{name: "upstream not supported", rev: "main@{u}", wantMsg: `unknown revision "main@{u}"`},
		{name: "bad suffix", rev: "main~x", wantMsg: `bad suffix "x"`},
		{name: "unterminated peel", rev: "main^{commit", wantMsg: "unterminated"},
		{name: "tree peel", rev: "main^{tree}", wantMsg: "unsupported peel"},
		{name: "suffix only", rev: "~1", wantMsg: `unknown revision "~1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := r.Resolve(tt.rev)
			if err == nil {
				t.Fatalf("Resolve(%q) = %s, want an error", tt.rev, got)
			}
			var unknown *UnknownRevisionError
			if !errors.As(err, &unknown) {
				t.Fatalf("error %v (%T) is not an *UnknownRevisionError", err, err)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q does not contain %q", err, tt.wantMsg)
			}
			if !strings.HasPrefix(err.Error(), fmt.Sprintf("unknown revision %q", tt.rev)) {
				t.Errorf("error %q does not start with the revision", err)
			}
		})
	}
}

// TestResolveAmbiguous imports enough commits that two share a 4-digit
// prefix.
func TestResolveAmbiguous(t *testing.T) {
	g := newTestRepo(t)
	var b strings.Builder
	for i := 1; i <= 1200; i++ {
		fmt.Fprintf(&b, "commit refs/heads/main\ncommitter R <r@example.com> %d +0000\ndata %d\nc%04d\n",
			1700000000+i, 5, i)
		if i == 1 {
			b.WriteString("deleteall\n")
		}
	}
	g.fastImport(b.String())
	byPrefix := map[string][]string{}
	for _, sha := range strings.Fields(g.git("rev-list", "main")) {
		byPrefix[sha[:4]] = append(byPrefix[sha[:4]], sha)
	}
	prefix := ""
	for p, shas := range byPrefix {
		if len(shas) > 1 && (prefix == "" || p < prefix) {
			prefix = p
		}
	}
	if prefix == "" {
		t.Fatal("no two commits share a 4-digit prefix; import more")
	}
	r := g.open()
	_, err := r.Resolve(prefix)
	if !errors.Is(err, ErrAmbiguous) {
		t.Fatalf("Resolve(%q) error = %v, want ErrAmbiguous", prefix, err)
	}
	for _, sha := range byPrefix[prefix] {
		if !strings.Contains(err.Error(), sha[:12]) {
			t.Errorf("error %q does not name %s", err, sha[:12])
		}
	}
	// A longer prefix disambiguates.
	want := byPrefix[prefix][0]
	got, err := r.Resolve(want[:20])
	if err != nil || got.String() != want {
		t.Errorf("Resolve(%q) = %s, %v; want %s", want[:20], got, err, want)
	}
}

func TestDefaultBranch(t *testing.T) {
	origin := newTestRepo(t)
	origin.write("f", "1\n")
	origin.commit("one")
	bare := filepath.Join(t.TempDir(), "origin.git")
	origin.gitIn(t.TempDir(), "", "clone", "-q", "--bare", origin.dir, bare)

	clone := func(t *testing.T) *testRepo {
		dir := filepath.Join(t.TempDir(), "clone")
		origin.gitIn(t.TempDir(), "", "clone", "-q", bare, dir)
		return origin.at(dir)
	}
	tests := []struct {
		name    string
		setup   func(t *testing.T) *testRepo
		want    string
		wantErr bool
	}{
		{name: "origin HEAD", setup: clone, want: "origin/main"},
		{name: "origin HEAD to another branch", setup: func(t *testing.T) *testRepo {
			c := clone(t)
			c.git("push", "-q", "origin", "HEAD:refs/heads/trunk")
			c.git("fetch", "-q")
			c.git("remote", "set-head", "origin", "trunk")
			return c
		}, want: "origin/trunk"},
		{name: "no origin HEAD", setup: func(t *testing.T) *testRepo {
			c := clone(t)
			c.git("remote", "set-head", "origin", "-d")
			return c
		}, want: "origin/main"},
		{name: "local main", setup: func(t *testing.T) *testRepo {
			g := newTestRepo(t)
			g.commit("x")
			return g
		}, want: "main"},
		{name: "local master", setup: func(t *testing.T) *testRepo {
			g := newTestRepo(t)
			g.git("checkout", "-q", "-b", "master")
			g.commit("x")
			return g
		}, want: "master"},
		{name: "none", setup: func(t *testing.T) *testRepo {
			g := newTestRepo(t)
			g.git("checkout", "-q", "-b", "trunk")
			g.commit("x")
			return g
		}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.setup(t).open()
			got, err := r.DefaultBranch()
			if tt.wantErr {
				if err == nil {
					t.Fatalf("DefaultBranch() = %q, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("DefaultBranch(): %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("DefaultBranch() (-want +got):\n%s", diff)
			}
			if _, err := r.Resolve(got); err != nil {
				t.Errorf("Resolve(%q): %v", got, err)
			}
		})
	}
}

// TestResolveRefBeforeShortSHA checks git's order for a name that is also a
// short SHA: a ref of that name wins, loose or packed, and without one the
// name is a short SHA.
func TestResolveRefBeforeShortSHA(t *testing.T) {
	tests := []struct {
		name  string
		setup func(g *testRepo, short string, h map[string]plumbing.Hash)
		want  string // a key of h
	}{
		{name: "no such ref", setup: func(*testRepo, string, map[string]plumbing.Hash) {}, want: "C"},
		{name: "loose branch", setup: func(g *testRepo, short string, h map[string]plumbing.Hash) {
			g.git("branch", short, h["A"].String())
		}, want: "A"},
		{name: "packed branch", setup: func(g *testRepo, short string, h map[string]plumbing.Hash) {
			g.git("branch", short, h["A"].String())
			g.git("pack-refs", "--all")
		}, want: "A"},
		{name: "packed tag", setup: func(g *testRepo, short string, h map[string]plumbing.Hash) {
			g.git("tag", short, h["B"].String())
			g.git("pack-refs", "--all")
		}, want: "B"},
		{name: "packed other refs only", setup: func(g *testRepo, _ string, _ map[string]plumbing.Hash) {
			g.git("pack-refs", "--all")
		}, want: "C"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, h := revisionRepo(t)
			short := h["C"].String()[:10]
			tt.setup(g, short, h)
			got, err := g.open().Resolve(short)
			if err != nil || got != h[tt.want] {
				t.Errorf("Resolve(%q) = %s, %v; want %s (%s)", short, got, err, h[tt.want], tt.want)
			}
		})
	}
}
