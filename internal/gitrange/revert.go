package gitrange

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
)

// A revert undoes an earlier commit, and the tests and checks that commit
// brought in go with it: the project is back where it was before them.
// Git's revert names the commit in its message ("This reverts commit X."),
// but HEAD's messages are the agent's to write, so the name is only a
// lead. The change counts as undoing X when X is in BASE's history (which
// the agent does not control) and, on every file X changed, the change
// adds exactly the lines X removed and removes exactly the lines X added,
// counted as multisets of lines (edits made next to X's lines since then
// do not matter; several reverted commits count together), and X changed
// code, not only tests: undoing a commit of tests alone (git revert of the
// commit that brought the failing test a task is about) is deleting those
// tests. Its deleted
// tests, removed checks and added skips in those files are then medium:
// an undoing to confirm, not tests lost. Anything else the change does,
// in files X did not touch, is judged as usual. A message that says it
// reverts without naming X (GitHub's revert of a pull request: `Revert
// "<title>"` alone) has X looked for among BASE's last first-parent
// commits, under the same proof.

const (
	maxRevertFiles = 400     // files a reverted commit may change
	maxRevertBytes = 8 << 20 // bytes of its files' versions read, both sides
	maxMergeLeads  = 32      // commits read along a merged branch for leads
	// maxContentLeads is how far back along BASE's first parents the
	// commit an unnamed revert undoes is looked for.
	maxContentLeads = 64
)

// reverted is what the change must undo for a lead to hold: per path, how
// many times each line was added (positive) or removed (negative) by the
// reverted commit.
type reverted struct {
	name  string // "1a2b3c4d (subject)"
	hash  plumbing.Hash
	diff  []gitrepo.Change
	paths map[string]bool // the paths it changed, on either side
	code  bool            // it changed a source file that is not a test
	once  sync.Once
	delta map[string]map[string]int // nil until read, and when it cannot be
}

// leads returns the commits a commit's message says it reverts, and for a
// merge those named by the commits it merged (the first maxMergeLeads met
// walking back from its other parents, breadth first, up to the range's
// main line). unnamed is set when one of those messages says it reverts
// without naming a commit (GitHub's revert of a pull request, `Revert "Add
// X"` alone): the commit it undoes is then looked for by its content (see
// undoByContent).
func (s *source) leads(c gitrepo.Commit) (named []string, unnamed bool) {
	named = append([]string(nil), c.Reverts...)
	unnamed = len(c.Reverts) == 0 && saysRevert(c.Subject)
	if len(c.Parents) < 2 {
		return named, unnamed
	}
	queue := append([]plumbing.Hash(nil), c.Parents[1:]...)
	seen := map[plumbing.Hash]bool{c.Parent: true}
	for h := range s.mainline {
		seen[h] = true // the merged branch forked from the main line: stop there
	}
	for n := 0; len(queue) > 0 && n < maxMergeLeads; n++ {
		h := queue[0]
		queue = queue[1:]
		if seen[h] {
			continue
		}
		seen[h] = true
		pc, err := s.repo.Commit(h)
		if err != nil {
			continue
		}
		named = append(named, pc.Reverts...)
		unnamed = unnamed || len(pc.Reverts) == 0 && saysRevert(pc.Subject)
		queue = append(queue, pc.Parents...)
	}
	return named, unnamed
}

// saysRevert reports whether a subject starts with the word revert (git's
// and GitHub's `Revert "..."`, a person's "revert cli test change").
func saysRevert(subject string) bool {
	w, _, _ := strings.Cut(strings.TrimSpace(subject), " ")
	w = strings.ToLower(strings.TrimRight(w, ":"))
	return w == "revert" || w == "reverts" || w == "reverted" || w == "reverting"
}

// undo lowers to medium the test deletions, removed checks and added skips
// of the change from..to in the files of the commits it undoes (see the
// top of this file), and says so in their messages. The leads are read
// only for a change with such a finding.
func (s *source) undo(from, to plumbing.Hash, leadsOf func() ([]string, bool), fs []gate.Finding) {
	if !slices.ContainsFunc(fs, lowerable) {
		return
	}
	leads, unnamed := leadsOf()
	s.undoNamed(from, to, leads, fs)
	if unnamed && slices.ContainsFunc(fs, lowerable) {
		s.undoByContent(from, to, fs)
	}
}

// undoNamed lowers what the commits the messages name account for.
func (s *source) undoNamed(from, to plumbing.Hash, leads []string, fs []gate.Finding) {
	if len(leads) == 0 {
		return
	}
	files := lowerableFiles(fs)
	var all []*reverted
	seen := map[string]bool{}
	for _, l := range leads {
		r := s.revertedBy(l)
		if r == nil || seen[r.name] || !touchesAny(r.paths, files) || !s.read(r) {
			continue
		}
		seen[r.name] = true
		all = append(all, r)
	}
	if len(all) == 0 {
		return
	}
	// Reverted commits that share a file count together (a merge of two
	// reverts of one file); the others each alone.
	for _, set := range byFile(all) {
		// Commits of tests alone undone (the failing test a task is
		// about, committed before the agent starts, and git revert of
		// it) are those tests deleted: nothing of the code they tested
		// goes with them. With a commit of code they count (tokio's
		// merge of two reverts, one of a test's edit).
		if !slices.ContainsFunc(set, func(r *reverted) bool { return r.code }) {
			continue
		}
		if paths := s.undoes(from, to, set); paths != nil {
			names := make([]string, len(set))
			for i, r := range set {
				names[i] = r.name
			}
			what := "commit " + names[0]
			if len(names) > 1 {
				what = "commits " + strings.Join(names, ", ")
			}
			lower(fs, paths, what)
		}
	}
}

// undoByContent looks, for a change whose message says it reverts without
// naming what, for the commit it undoes among BASE's last
// maxContentLeads first-parent commits (a merge counts as its whole pull
// request): one that changed code and a file of the findings, and that the
// change undoes line for line on every file it changed, alone. The message
// only starts the search; what holds is the same proof as for a named
// commit.
func (s *source) undoByContent(from, to plumbing.Hash, fs []gate.Finding) {
	files := lowerableFiles(fs)
	for _, r := range s.baseHistory() {
		if len(files) == 0 {
			return
		}
		if !r.code || !touchesAny(r.paths, files) || !s.read(r) {
			continue
		}
		if paths := s.undoes(from, to, []*reverted{r}); paths != nil {
			lower(fs, paths, "commit "+r.name)
			files = lowerableFiles(fs)
		}
	}
}

// lowerableFiles are the files of the findings a revert may lower.
func lowerableFiles(fs []gate.Finding) map[string]bool {
	files := map[string]bool{}
	for _, f := range fs {
		if lowerable(f) {
			files[f.File] = true
		}
	}
	return files
}

// baseHistory returns BASE and its first-parent ancestors, maxContentLeads
// at most, each with what it changed, read once for the range.
func (s *source) baseHistory() []*reverted {
	s.historyOnce.Do(func() {
		h := s.base
		for i := 0; i < maxContentLeads && !h.IsZero(); i++ {
			if r := s.revertedBy(h.String()); r != nil {
				s.history = append(s.history, r)
			}
			c, err := s.repo.Commit(h)
			if err != nil {
				return
			}
			h = c.Parent
		}
	})
	return s.history
}

// byFile groups reverted commits that change a file in common, directly or
// through others, keeping their order.
func byFile(all []*reverted) [][]*reverted {
	group := make([]int, len(all)) // index of each commit's group
	for i := range group {
		group[i] = i
	}
	find := func(i int) int {
		for group[i] != i {
			i = group[i]
		}
		return i
	}
	owner := map[string]int{}
	for i, r := range all {
		for p := range r.delta {
			if j, ok := owner[p]; ok {
				group[find(i)] = find(j)
			} else {
				owner[p] = i
			}
		}
	}
	var out [][]*reverted
	at := map[int]int{}
	for i, r := range all {
		g := find(i)
		k, ok := at[g]
		if !ok {
			k = len(out)
			at[g] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], r)
	}
	return out
}

func touchesAny(paths, files map[string]bool) bool {
	for p := range files {
		if paths[p] {
			return true
		}
	}
	return false
}

func lowerable(f gate.Finding) bool {
	return f.Severity > gate.SeverityMedium && f.File != "" &&
		(f.Type == gate.TestDeletion || f.Type == gate.AssertionWeakening || f.Type == gate.TestSkipping)
}

func lower(fs []gate.Finding, paths map[string]bool, what string) {
	for i := range fs {
		if lowerable(fs[i]) && paths[fs[i].File] {
			fs[i].Severity = gate.SeverityMedium
			fs[i].Message = strings.TrimSuffix(fs[i].Message, ".") +
				fmt.Sprintf("; the change undoes %s line for line in %s, which brought it in: a revert to confirm.", what, fs[i].File)
		}
	}
}

// undoes returns the paths of the reverted commits when the change
// from..to adds and removes, on each of them, exactly the lines they
// removed and added together; nil when it does not.
func (s *source) undoes(from, to plumbing.Hash, set []*reverted) map[string]bool {
	want := map[string]map[string]int{}
	for _, r := range set {
		for p, d := range r.delta {
			w := want[p]
			if w == nil {
				w = map[string]int{}
				want[p] = w
			}
			for line, n := range d {
				w[line] -= n
			}
		}
	}
	read := 0
	paths := map[string]bool{}
	for p, w := range want {
		got := map[string]int{}
		for _, side := range []struct {
			commit plumbing.Hash
			sign   int
		}{{from, -1}, {to, 1}} {
			b := s.readAt(side.commit, p)
			if read += len(b); read > maxRevertBytes {
				return nil
			}
			countLines(got, b, side.sign)
		}
		for line, n := range w {
			if n == 0 {
				delete(w, line)
			}
		}
		if !sameCounts(got, w) {
			return nil
		}
		paths[p] = true
	}
	return paths
}

// revertedBy resolves a lead to a commit and the paths it changed, once
// per lead (what it did to them, and whether it is in BASE's history, are
// read later, only for a change with a finding in one of them); nil when
// the lead names no commit.
func (s *source) revertedBy(lead string) *reverted {
	s.mu.Lock()
	r, ok := s.reverts[lead]
	s.mu.Unlock()
	if ok {
		return r
	}
	r = s.readReverted(lead)
	s.mu.Lock()
	if s.reverts == nil {
		s.reverts = map[string]*reverted{}
	}
	s.reverts[lead] = r
	s.mu.Unlock()
	return r
}

func (s *source) readReverted(lead string) *reverted {
	if s.base.IsZero() {
		return nil
	}
	h, err := s.repo.Resolve(lead)
	if err != nil {
		return nil
	}
	c, err := s.repo.Commit(h)
	if err != nil || len(c.Parents) == 0 {
		return nil
	}
	diff, err := s.repo.Diff(c.Parent, h)
	if err != nil || len(diff) == 0 || len(diff) > maxRevertFiles {
		return nil
	}
	r := &reverted{name: fmt.Sprintf("%s (%q)", short(h), c.Subject), hash: h, diff: diff, paths: map[string]bool{}}
	code := false
	for _, d := range diff {
		for _, p := range []string{d.From.Path, d.To.Path} {
			if p != "" {
				r.paths[p] = true
				ext := scanners.ForPath(p)
				code = code || ext != nil && !ext.IsTestFile(p)
			}
		}
	}
	r.code = code
	return r
}

// read checks that r is in BASE's history and counts the lines it added
// and removed, once; false when it is not, or cannot be read whole.
func (s *source) read(r *reverted) bool {
	r.once.Do(func() {
		if r.hash != s.base {
			if _, err := s.repo.Range(r.hash, s.base); err != nil {
				return // not in BASE's history
			}
		}
		delta := map[string]map[string]int{}
		read := 0
		for _, d := range r.diff {
			for _, e := range []struct {
				entry gitrepo.Entry
				sign  int
			}{{d.From, -1}, {d.To, 1}} {
				if e.entry.Path == "" {
					continue
				}
				m := delta[e.entry.Path]
				if m == nil {
					m = map[string]int{}
					delta[e.entry.Path] = m
				}
				if e.entry.Hash.IsZero() {
					continue
				}
				b, err := s.repo.Blob(e.entry.Hash)
				if err != nil {
					return
				}
				if read += len(b); read > maxRevertBytes {
					return
				}
				countLines(m, b, e.sign)
			}
		}
		r.delta = delta
	})
	return r.delta != nil
}

// countLines adds sign to the count of each line of b.
func countLines(m map[string]int, b []byte, sign int) {
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		m[string(line)] += sign
	}
}

// sameCounts compares two line counts, lines counted zero times left out.
func sameCounts(a, b map[string]int) bool {
	n := 0
	for line, k := range a {
		if k == 0 {
			continue
		}
		if b[line] != k {
			return false
		}
		n++
	}
	return n == len(b)
}
