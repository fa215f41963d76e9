package gitrepo

import (
	"path"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

const (
	// RenameThreshold is the similarity, in percent, from which a deleted and
	// an added file are paired as a rename: git's default (-M50%).
	RenameThreshold = 50
	// RenameCandidateLimit caps similar-content detection: when the added x
	// deleted files left after exact renames exceed it, only exact renames are
	// reported, as git does with diff.renameLimit. Scoring reads every
	// candidate blob, which a mass move of thousands of files cannot afford.
	RenameCandidateLimit = 500
)

// emptyBlob is the hash of the empty file. Empty files are never paired as
// renames: any two of them are identical, and pairing them says nothing.
var emptyBlob = plumbing.NewHash("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")

// detectRenames pairs deletions with additions: identical content first, then
// similar content.
func (r *Repo) detectRenames(changes []Change) []Change {
	var added, deleted []int
	for i, c := range changes {
		switch {
		case c.Action == Add && renameable(c.To):
			added = append(added, i)
		case c.Action == Delete && renameable(c.From):
			deleted = append(deleted, i)
		}
	}
	if len(added) == 0 || len(deleted) == 0 {
		return changes
	}
	used := map[int]bool{} // indexes of changes folded into a rename
	var renames []Change

	// Exact renames: same content and same kind of entry (file or link).
	byHash := map[plumbing.Hash][]int{}
	for _, d := range deleted {
		byHash[changes[d].From.Hash] = append(byHash[changes[d].From.Hash], d)
	}
	var addLeft []int
	for _, a := range added {
		to := changes[a].To
		best := -1
		for _, d := range byHash[to.Hash] {
			if used[d] || isLink(changes[d].From.Mode) != isLink(to.Mode) {
				continue
			}
			if best < 0 || nameScore(changes[d].From.Path, to.Path) > nameScore(changes[best].From.Path, to.Path) {
				best = d
			}
		}
		if best < 0 {
			addLeft = append(addLeft, a)
			continue
		}
		used[best], used[a] = true, true
		renames = append(renames, Change{Action: Rename, From: changes[best].From, To: to, Similarity: 100})
	}
	var delLeft []int
	for _, d := range deleted {
		if !used[d] {
			delLeft = append(delLeft, d)
		}
	}

	// Similar content, for regular files only, within the candidate limit.
	addLeft, delLeft = regularOnly(changes, addLeft, true), regularOnly(changes, delLeft, false)
	if len(addLeft) > 0 && len(delLeft) > 0 && len(addLeft)*len(delLeft) <= RenameCandidateLimit {
		renames = append(renames, r.similarRenames(changes, addLeft, delLeft, used)...)
	}

	if len(renames) == 0 {
		return changes
	}
	out := make([]Change, 0, len(changes)-len(renames))
	for i, c := range changes {
		if !used[i] {
			out = append(out, c)
		}
	}
	return append(out, renames...)
}

// pair is a scored rename candidate.
type pair struct {
	add, del   int
	score      int
	nameScore  int
	addP, delP string
}

// similarRenames scores every added x deleted pair with git's similarity
// estimate and keeps the best pairs at or above RenameThreshold, each file in
// at most one rename.
func (r *Repo) similarRenames(changes []Change, added, deleted []int, used map[int]bool) []Change {
	sizes := map[plumbing.Hash]int64{}
	size := func(h plumbing.Hash) int64 {
		if s, ok := sizes[h]; ok {
			return s
		}
		s, err := r.blobSize(h)
		if err != nil || s > MaxBlobSize {
			s = -1
		}
		sizes[h] = s
		return s
	}
	sigs := map[plumbing.Hash]*signature{}
	sig := func(h plumbing.Hash) *signature {
		if s, ok := sigs[h]; ok {
			return s
		}
		var s *signature
		if b, err := r.Blob(h); err == nil {
			s = newSignature(b)
		}
		sigs[h] = s
		return s
	}
	var pairs []pair
	for _, d := range deleted {
		from := changes[d].From
		fs := size(from.Hash)
		if fs < 0 {
			continue
		}
		for _, a := range added {
			to := changes[a].To
			ts := size(to.Hash)
			if ts < 0 || !sizesCompatible(fs, ts) {
				continue
			}
			sf, st := sig(from.Hash), sig(to.Hash)
			if sf == nil || st == nil {
				continue
			}
			score := similarity(sf, st)
			if score < RenameThreshold {
				continue
			}
			pairs = append(pairs, pair{add: a, del: d, score: score,
				nameScore: nameScore(from.Path, to.Path), addP: to.Path, delP: from.Path})
		}
	}
	sort.Slice(pairs, func(i, j int) bool {
		p, q := pairs[i], pairs[j]
		switch {
		case p.score != q.score:
			return p.score > q.score
		case p.nameScore != q.nameScore:
			return p.nameScore > q.nameScore
		case p.addP != q.addP:
			return p.addP < q.addP
		}
		return p.delP < q.delP
	})
	var out []Change
	for _, p := range pairs {
		if used[p.add] || used[p.del] {
			continue
		}
		used[p.add], used[p.del] = true, true
		out = append(out, Change{Action: Rename, From: changes[p.del].From, To: changes[p.add].To, Similarity: p.score})
	}
	return out
}

// sizesCompatible rejects pairs whose sizes alone rule out RenameThreshold,
// before any content is read.
func sizesCompatible(a, b int64) bool {
	lo, hi := min(a, b), max(a, b)
	if hi == 0 {
		return false
	}
	return lo*100 >= hi*RenameThreshold
}

func renameable(e Entry) bool {
	return e.Mode != filemode.Submodule && e.Mode != filemode.Dir && e.Hash != emptyBlob
}

func isLink(m filemode.FileMode) bool { return m == filemode.Symlink }

// regularOnly keeps the changes whose file (To for additions, From for
// deletions) is a regular or executable file.
func regularOnly(changes []Change, idx []int, add bool) []int {
	var out []int
	for _, i := range idx {
		m := changes[i].From.Mode
		if add {
			m = changes[i].To.Mode
		}
		if m.IsFile() && m != filemode.Symlink {
			out = append(out, i)
		}
	}
	return out
}

// nameScore prefers, among equally good candidates, the one whose name is the
// most alike: same base name first, then the longest shared directory prefix.
func nameScore(a, b string) int {
	score := 0
	if path.Base(a) == path.Base(b) {
		score += 1 << 16
	}
	da, db := path.Dir(a), path.Dir(b)
	n := 0
	for n < len(da) && n < len(db) && da[n] == db[n] {
		n++
	}
	return score + min(n, 1<<16-1)
}
