package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Entry is one commit of the corpus, a line of testdata/precision/corpus.tsv:
//
//	# repo	commit	parent	language	snapshot_head
//	spf13/cobra	adbc8813901bba65827259daa8e22ff94ec1f30e	ad460ea8f249db69c943a365fb84f3a59042d54e	go	adbc8813901bba65827259daa8e22ff94ec1f30e
type Entry struct {
	Repo     string
	SHA      string
	Parent   string
	Language string
	Snapshot string
}

// ReadCorpus reads corpus.tsv; lines starting with # and blank lines are
// skipped, and any other line must have the five fields with full commit ids.
func ReadCorpus(r io.Reader, name string) ([]Entry, error) {
	var out []Entry
	err := readTSV(r, name, "repo, commit, parent, language, snapshot_head", func(n int, f []string) error {
		e := Entry{Repo: f[0], SHA: f[1], Parent: f[2], Language: f[3], Snapshot: f[4]}
		if !strings.Contains(e.Repo, "/") || e.Language == "" {
			return fmt.Errorf("%s:%d: want repo as OWNER/NAME and a language, got %q and %q", name, n, e.Repo, e.Language)
		}
		for _, id := range []string{e.SHA, e.Parent, e.Snapshot} {
			if !isCommitID(id) {
				return fmt.Errorf("%s:%d: %q is not a 40-hex commit id", name, n, id)
			}
		}
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no commits", name)
	}
	return out, nil
}

// readTSV calls line with the fields of each line of a tab-separated file
// (its number, counted from 1), skipping blank lines and lines that start
// with #; a line without as many fields as fields names is an error.
func readTSV(r io.Reader, name, fields string, line func(n int, f []string) error) error {
	want := len(strings.Split(fields, ","))
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimRight(sc.Text(), "\r")
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) != want {
			return fmt.Errorf("%s:%d: want %d tab-separated fields (%s), got %d", name, n, want, fields, len(f))
		}
		if err := line(n, f); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	return nil
}

func isCommitID(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// GitDir finds the git directory of repo (OWNER/NAME) under mirrors: the fetch
// tool's snapshots are OWNER+NAME/repo, `git clone --mirror` into
// OWNER+NAME.git is the other documented layout, and a plain OWNER+NAME (bare
// or a clone with a work tree) is accepted too.
func GitDir(mirrors, repo string) (string, error) {
	base := filepath.Join(mirrors, strings.ReplaceAll(repo, "/", "+"))
	for _, d := range []string{base + "/repo", base + ".git", base} {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			continue
		}
		if exec.Command("git", "-C", d, "rev-parse", "--git-dir").Run() == nil {
			return d, nil
		}
	}
	return "", fmt.Errorf("no git directory for %s under %s (want %s/repo or %s.git; see scripts/precision-corpus.sh)", repo, mirrors, filepath.Base(base), filepath.Base(base))
}
