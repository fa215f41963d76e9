package gitrepo

import (
	"fmt"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Action is what happened to a path between two trees.
type Action int

// The actions of a Change.
const (
	Add Action = iota + 1
	Delete
	Modify
	Rename
)

// String names the action in lower case, as reports print it.
func (a Action) String() string {
	switch a {
	case Add:
		return "add"
	case Delete:
		return "delete"
	case Modify:
		return "modify"
	case Rename:
		return "rename"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// Entry is one side of a Change: a path from the repository root, its blob
// (or, for a submodule, commit) hash and its mode. The zero Entry stands for
// "no file": the From of an Add, the To of a Delete.
type Entry struct {
	Path string
	Hash plumbing.Hash
	Mode filemode.FileMode
}

// Change is one changed path. Modes are kept as they are so that a caller can
// skip submodules (filemode.Submodule) and symbolic links (filemode.Symlink);
// a Modify whose modes differ is a mode or type change.
type Change struct {
	Action   Action
	From, To Entry
	// Similarity is the content similarity of a Rename in percent (100 for an
	// identical file); 0 for other actions.
	Similarity int
}

// Path is the path a change is sorted and reported by: To's, or From's for a
// deletion.
func (c Change) Path() string {
	if c.Action == Delete {
		return c.From.Path
	}
	return c.To.Path
}

// Diff compares the trees of two commits; from may be plumbing.ZeroHash for
// the empty tree (a root commit). Only subtrees whose hashes differ are read,
// no blob is read except to score rename candidates, and the changes come
// sorted by Path.
func (r *Repo) Diff(from, to plumbing.Hash) ([]Change, error) {
	var fromTree, toTree plumbing.Hash
	if !from.IsZero() {
		c, err := r.loadCommit(from)
		if err != nil {
			return nil, fmt.Errorf("diff: %w", err)
		}
		fromTree = c.Tree
	}
	c, err := r.loadCommit(to)
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	toTree = c.Tree
	return r.DiffTrees(fromTree, toTree)
}

// DiffTrees is Diff on two tree hashes; the zero hash is the empty tree.
func (r *Repo) DiffTrees(from, to plumbing.Hash) ([]Change, error) {
	var changes []Change
	if err := r.diffTrees(from, to, "", &changes); err != nil {
		return nil, fmt.Errorf("diff trees %s..%s: %w", short(from), short(to), err)
	}
	changes = r.detectRenames(changes)
	sort.SliceStable(changes, func(i, j int) bool { return changes[i].Path() < changes[j].Path() })
	return changes, nil
}

// diffTrees merges two sorted tree listings, recursing into subtrees that
// differ.
func (r *Repo) diffTrees(a, b plumbing.Hash, prefix string, out *[]Change) error {
	if a == b {
		return nil
	}
	ea, err := r.loadTree(a)
	if err != nil {
		return err
	}
	eb, err := r.loadTree(b)
	if err != nil {
		return err
	}
	i, j := 0, 0
	for i < len(ea) || j < len(eb) {
		var cmp int
		switch {
		case i == len(ea):
			cmp = 1
		case j == len(eb):
			cmp = -1
		default:
			cmp = compareEntries(&ea[i], &eb[j])
		}
		switch {
		case cmp < 0:
			if err := r.emitAll(&ea[i], prefix, Delete, out); err != nil {
				return err
			}
			i++
		case cmp > 0:
			if err := r.emitAll(&eb[j], prefix, Add, out); err != nil {
				return err
			}
			j++
		default:
			x, y := &ea[i], &eb[j]
			i++
			j++
			if x.Hash == y.Hash && x.Mode == y.Mode {
				continue
			}
			if x.Mode == filemode.Dir {
				if err := r.diffTrees(x.Hash, y.Hash, joinPath(prefix, x.Name), out); err != nil {
					return err
				}
				continue
			}
			p := joinPath(prefix, x.Name)
			*out = append(*out, Change{
				Action: Modify,
				From:   Entry{Path: p, Hash: x.Hash, Mode: x.Mode},
				To:     Entry{Path: p, Hash: y.Hash, Mode: y.Mode},
			})
		}
	}
	return nil
}

// emitAll reports an entry present on one side only; a directory reports
// every file under it.
func (r *Repo) emitAll(e *object.TreeEntry, prefix string, action Action, out *[]Change) error {
	p := joinPath(prefix, e.Name)
	if e.Mode != filemode.Dir {
		ent := Entry{Path: p, Hash: e.Hash, Mode: e.Mode}
		if action == Add {
			*out = append(*out, Change{Action: Add, To: ent})
		} else {
			*out = append(*out, Change{Action: Delete, From: ent})
		}
		return nil
	}
	entries, err := r.loadTree(e.Hash)
	if err != nil {
		return err
	}
	for k := range entries {
		if err := r.emitAll(&entries[k], p, action, out); err != nil {
			return err
		}
	}
	return nil
}

// compareEntries orders tree entries as git does: a directory sorts as if its
// name ended in "/". Two entries compare equal when they have the same name
// and are both directories or both not.
func compareEntries(a, b *object.TreeEntry) int {
	aDir, bDir := a.Mode == filemode.Dir, b.Mode == filemode.Dir
	for k := 0; ; k++ {
		ca, cb := keyByte(a.Name, k, aDir), keyByte(b.Name, k, bDir)
		if ca != cb || ca < 0 {
			return ca - cb
		}
	}
}

// keyByte is the k-th byte of an entry's sort key (its name, plus "/" for a
// directory), or -1 past the end.
func keyByte(name string, k int, dir bool) int {
	switch {
	case k < len(name):
		return int(name[k])
	case k == len(name) && dir:
		return '/'
	}
	return -1
}
