package collect

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// Stats are the tree statistics of a commit (see the package doc).
type Stats struct {
	// Files counts the source files of the known languages.
	Files int
	// Lines counts their non-blank lines.
	Lines int
	// Complexity sums their decision points.
	Complexity int
}

// language is how the scanner reads a family of languages.
type language int

const (
	langNone   language = iota
	langCLike           // Go, JavaScript, TypeScript, Java, Rust
	langPython          // Python
)

var sourceExts = map[string]language{
	".go": langCLike, ".js": langCLike, ".jsx": langCLike, ".mjs": langCLike, ".cjs": langCLike,
	".ts": langCLike, ".tsx": langCLike, ".mts": langCLike, ".cts": langCLike,
	".java": langCLike, ".rs": langCLike, ".py": langPython, ".pyi": langPython,
}

// TreeStats counts the source files of a commit's tree, their non-blank
// lines and their decision points, from git objects. Vendored, node_modules,
// third_party and testdata folders (config.DefaultIgnore), symbolic links,
// submodules, binary files and blobs larger than gitrepo.MaxBlobSize are
// left out.
func TreeStats(repo *gitrepo.Repo, commit plumbing.Hash) (Stats, error) {
	var s Stats
	var walk func(dir string) error
	walk = func(dir string) error {
		entries, err := repo.ListDir(commit, dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if ignoredPath(e.Path, e.Mode == filemode.Dir) {
				continue
			}
			switch {
			case e.Mode == filemode.Dir:
				if err := walk(e.Path); err != nil {
					return err
				}
				continue
			case e.Mode != filemode.Regular && e.Mode != filemode.Executable:
				continue
			}
			lang := sourceExts[strings.ToLower(path.Ext(e.Path))]
			if lang == langNone {
				continue
			}
			b, err := repo.Blob(e.Hash)
			if errors.Is(err, gitrepo.ErrTooLarge) {
				continue
			}
			if err != nil {
				return err
			}
			if gitrepo.IsBinary(b) {
				continue
			}
			s.Files++
			s.Lines += nonBlankLines(b)
			s.Complexity += Complexity(b, path.Ext(e.Path))
		}
		return nil
	}
	if err := walk(""); err != nil {
		return Stats{}, fmt.Errorf("tree statistics of %s: %w", short(commit), err)
	}
	return s, nil
}

// ignoredPath applies config.DefaultIgnore; a directory is matched as if it
// held a file, so that whole folders are skipped without being read.
func ignoredPath(p string, dir bool) bool {
	if dir {
		p += "/x"
	}
	for _, g := range config.DefaultIgnore {
		if config.MatchGlob(g, p) {
			return true
		}
	}
	return false
}

func nonBlankLines(b []byte) int {
	n := 0
	blank := true
	for _, c := range b {
		switch c {
		case '\n':
			if !blank {
				n++
			}
			blank = true
		case ' ', '\t', '\r', '\f', '\v':
		default:
			blank = false
		}
	}
	if !blank {
		n++
	}
	return n
}
