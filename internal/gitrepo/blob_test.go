package gitrepo

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/google/go-cmp/cmp"
)

func TestIsBinary(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want bool
	}{
		{name: "empty", in: nil, want: false},
		{name: "text", in: []byte("package main\n\nfunc main() {}\n"), want: false},
		{name: "utf-8", in: []byte("héllo wörld ✓\n"), want: false},
		{name: "nul early", in: []byte("PNG\x00\x01\x02"), want: true},
		{name: "nul at 7999", in: append(bytes.Repeat([]byte("a"), 7999), 0), want: true},
		{name: "nul at 8000", in: append(bytes.Repeat([]byte("a"), 8000), 0), want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsBinary(tt.in); got != tt.want {
				t.Errorf("IsBinary = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBlobAndReadFile(t *testing.T) {
	g := newTestRepo(t)
	g.write(".ralph-gate.yml", "fail_on: high\n")
	g.write("pkg/a/x_test.go", "package a\n")
	g.write("pkg/a/y.go", "package a\n")
	g.write("pkg/img.png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	g.write("big.txt", strings.Repeat("0123456789abcdef", (MaxBlobSize/16)+1))
	g.write("limit.txt", strings.Repeat("z", MaxBlobSize))
	c := g.commit("files")
	g.git("update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("2", 40)+",sub")
	*g.tick++
	g.git("commit", "-q", "-m", "submodule")
	withSub := g.head()
	r := g.open()

	t.Run("ReadFile", func(t *testing.T) {
		tests := []struct {
			name, path string
			commit     plumbing.Hash
			want       string
			wantErr    error
		}{
			{name: "root file", path: ".ralph-gate.yml", commit: c, want: "fail_on: high\n"},
			{name: "nested file", path: "pkg/a/y.go", commit: c, want: "package a\n"},
			{name: "leading ./", path: "./pkg/a/y.go", commit: c, want: "package a\n"},
			{name: "missing file", path: "nope.yml", commit: c, wantErr: ErrNotFound},
			{name: "missing directory", path: "no/such/file", commit: c, wantErr: ErrNotFound},
			{name: "file used as directory", path: "big.txt/x", commit: c, wantErr: ErrNotFound},
			{name: "directory", path: "pkg/a", commit: c, wantErr: ErrNotFound},
			{name: "empty path", path: "", commit: c, wantErr: ErrNotFound},
			{name: "submodule", path: "sub", commit: withSub, wantErr: ErrNotFound},
			{name: "too large", path: "big.txt", commit: c, wantErr: ErrTooLarge},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got, err := r.ReadFile(tt.commit, tt.path)
				if tt.wantErr != nil {
					if !errors.Is(err, tt.wantErr) {
						t.Fatalf("ReadFile(%q) error = %v, want %v", tt.path, err, tt.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatalf("ReadFile(%q): %v", tt.path, err)
				}
				if diff := cmp.Diff(tt.want, string(got)); diff != "" {
					t.Errorf("ReadFile(%q) (-want +got):\n%s", tt.path, diff)
				}
			})
		}
	})

	t.Run("Blob", func(t *testing.T) {
		hash := func(p string) plumbing.Hash { return plumbing.NewHash(g.git("rev-parse", c.String()+":"+p)) }
		png, err := r.Blob(hash("pkg/img.png"))
		if err != nil {
			t.Fatal(err)
		}
		if !IsBinary(png) {
			t.Error("png is not binary")
		}
		src, err := r.Blob(hash("pkg/a/y.go"))
		if err != nil || IsBinary(src) {
			t.Errorf("Blob(y.go) = %q, %v; binary %v", src, err, IsBinary(src))
		}
		limit, err := r.Blob(hash("limit.txt"))
		if err != nil || len(limit) != MaxBlobSize {
			t.Errorf("Blob(limit.txt) = %d bytes, %v; want exactly MaxBlobSize", len(limit), err)
		}
		_, err = r.Blob(hash("big.txt"))
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("Blob(big.txt) error = %v, want ErrTooLarge", err)
		}
		_, err = r.Blob(plumbing.NewHash(strings.Repeat("3", 40)))
		if err == nil {
			t.Error("Blob of a missing object succeeded")
		}
	})

	t.Run("packed", func(t *testing.T) {
		g.write("big2.txt", strings.Repeat("0123456789abcdef", (MaxBlobSize/16)+1)+"tail\n")
		g.write("small2.txt", strings.Repeat("z", MaxBlobSize-8)+"changed\n")
		c2 := g.commit("deltas")
		g.git("repack", "-adq")
		rp := g.open()
		for _, name := range []string{"big.txt", "big2.txt"} {
			_, err := rp.Blob(plumbing.NewHash(g.git("rev-parse", c2.String()+":"+name)))
			if !errors.Is(err, ErrTooLarge) {
				t.Errorf("packed Blob(%s) error = %v, want ErrTooLarge", name, err)
			}
		}
		for _, name := range []string{"limit.txt", "small2.txt", "pkg/a/y.go"} {
			b, err := rp.ReadFile(c2, name)
			want := g.git("show", c2.String()+":"+name)
			if err != nil || strings.TrimSpace(string(b)) != want {
				t.Errorf("packed ReadFile(%s) = %d bytes, %v; want %d bytes", name, len(b), err, len(want)+1)
			}
		}
	})

	t.Run("ListDir", func(t *testing.T) {
		got, err := r.ListDir(withSub, "pkg/a")
		if err != nil {
			t.Fatal(err)
		}
		want := []Entry{
			{Path: "pkg/a/x_test.go", Hash: plumbing.NewHash(g.git("rev-parse", c.String()+":pkg/a/x_test.go")), Mode: filemode.Regular},
			{Path: "pkg/a/y.go", Hash: plumbing.NewHash(g.git("rev-parse", c.String()+":pkg/a/y.go")), Mode: filemode.Regular},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ListDir(pkg/a) (-want +got):\n%s", diff)
		}
		root, err := r.ListDir(withSub, ".")
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range root {
			names = append(names, e.Path)
		}
		if diff := cmp.Diff([]string{".ralph-gate.yml", "big.txt", "limit.txt", "pkg", "sub"}, names); diff != "" {
			t.Errorf("ListDir(.) (-want +got):\n%s", diff)
		}
		if _, err := r.ListDir(withSub, "pkg/nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("ListDir(pkg/nope) error = %v, want ErrNotFound", err)
		}
	})
}
