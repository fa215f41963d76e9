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
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("%s:%d: want 5 tab-separated fields (repo, commit, parent, language, snapshot_head), got %d", name, n, len(f))
		}
		e := Entry{Repo: f[0], SHA: f[1], Parent: f[2], Language: f[3], Snapshot: f[4]}
		if !strings.Contains(e.Repo, "/") || e.Language == "" {
			return nil, fmt.Errorf("%s:%d: want repo as OWNER/NAME and a language, got %q and %q", name, n, e.Repo, e.Language)
		}
		for _, id := range []string{e.SHA, e.Parent, e.Snapshot} {
			if !isCommitID(id) {
				return nil, fmt.Errorf("%s:%d: %q is not a 40-hex commit id", name, n, id)
			}
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no commits", name)
	}
	return out, nil
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
