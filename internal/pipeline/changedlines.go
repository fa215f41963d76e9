package pipeline

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/analyze"
	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// diffTimeout bounds one file's line diff; past it the diff falls back to a
// coarser one that counts more lines as changed, never fewer.
const diffTimeout = 5 * time.Second

// changedLineCoverage measures HEAD's changed-line coverage; nil when HEAD
// measured no coverage.
func (c *comparison) changedLineCoverage(headM *collect.Measurement) (*gate.ChangedLines, error) {
	if headM == nil || headM.Result == nil || headM.Result.Coverage == nil {
		return nil, nil
	}
	lines, err := changedLines(c.p.opt.Repo, c.base, c.head, headM.Result.Coverage)
	if err != nil {
		return nil, err
	}
	return analyze.ChangedLineCoverage(headM.Result, lines, c.p.opt.Config.Coverage.ChangedLinesMin), nil
}

// changedLines maps each regular file that BASE..HEAD added, modified or
// renamed with edits, and whose kind the coverage report measures, to the
// numbers of its lines at HEAD that the range added or changed (the "+" lines
// of a unified diff). A file too large to diff counts every line the report
// instruments as changed: an unread file never lowers the count.
func changedLines(repo *gitrepo.Repo, base, head plumbing.Hash, cov *collectors.Coverage) (map[string][]int, error) {
	exts := map[string]bool{}
	for p := range cov.Files {
		exts[path.Ext(p)] = true
	}
	changes, err := repo.Diff(base, head)
	if err != nil {
		return nil, err
	}
	out := map[string][]int{}
	for _, ch := range changes {
		if ch.Action == gitrepo.Delete || ch.To.Mode != filemode.Regular && ch.To.Mode != filemode.Executable || !exts[path.Ext(ch.To.Path)] {
			continue
		}
		if ch.Action == gitrepo.Rename && ch.From.Hash == ch.To.Hash {
			continue
		}
		now, err := repo.Blob(ch.To.Hash)
		if errors.Is(err, gitrepo.ErrTooLarge) {
			out[ch.To.Path] = instrumentedLines(cov, ch.To.Path)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("changed lines of %s: %w", ch.To.Path, err)
		}
		if gitrepo.IsBinary(now) {
			continue
		}
		var was []byte
		if ch.Action != gitrepo.Add && ch.From.Mode.IsFile() {
			was, err = repo.Blob(ch.From.Hash)
			if errors.Is(err, gitrepo.ErrTooLarge) {
				was = nil // compare with nothing: every line is new
			} else if err != nil {
				return nil, fmt.Errorf("changed lines of %s: %w", ch.From.Path, err)
			}
		}
		if lines := addedLines(string(was), string(now)); len(lines) > 0 {
			out[ch.To.Path] = lines
		}
	}
	return out, nil
}

// addedLines returns the 1-based numbers of the lines of now that a line
// diff from was marks as inserted.
func addedLines(was, now string) []int {
	var lines []int
	n := 1
	for _, d := range diff.DoWithTimeout(was, now, diffTimeout) {
		k := strings.Count(d.Text, "\n")
		if !strings.HasSuffix(d.Text, "\n") && d.Text != "" {
			k++ // the file's last line, without a newline
		}
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			for i := 0; i < k; i++ {
				lines = append(lines, n+i)
			}
			n += k
		case diffmatchpatch.DiffEqual:
			n += k
		}
	}
	return lines
}

// instrumentedLines lists every line the report instruments in a file.
func instrumentedLines(cov *collectors.Coverage, repoPath string) []int {
	var lines []int
	for p, f := range cov.Files {
		if p != repoPath && !strings.HasSuffix(p, "/"+repoPath) {
			continue
		}
		for _, b := range f.Blocks() {
			for l := b.StartLine; l <= b.EndLine && l-b.StartLine < 1<<16; l++ {
				lines = append(lines, l)
			}
		}
		for _, h := range f.LineHits() {
			lines = append(lines, h.Line)
		}
	}
	return lines
}
