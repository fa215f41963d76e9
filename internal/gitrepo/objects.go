package gitrepo

import (
	"errors"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Commit is what the analyzer needs to know about one commit.
type Commit struct {
	Hash plumbing.Hash
	// Parent is the first parent, the one a commit is compared with;
	// plumbing.ZeroHash for a root commit.
	Parent plumbing.Hash
	// Parents lists every parent; more than one for a merge.
	Parents []plumbing.Hash
	// Subject is the first line of the message.
	Subject string
	// Author is "Name <email>".
	Author string
	// When is the author date.
	When time.Time
	// Committed is the committer date, which orders history walks.
	Committed time.Time
	Tree      plumbing.Hash
	// Reverts are the commits the message says this one reverts, as
	// written in git revert's "This reverts commit X." lines (full or
	// abbreviated hex): a lead for the analysis to verify, never proof.
	Reverts []string
}

// Commit reads one commit.
func (r *Repo) Commit(h plumbing.Hash) (Commit, error) {
	c, err := r.loadCommit(h)
	if err != nil {
		return Commit{}, err
	}
	return c, nil
}

// read runs a read of object h under the lock. When h is missing, pack
// files written since they were indexed (a gc or a fetch while the Repo is
// open) are indexed, and in a partial clone h is fetched, before the read is
// retried; an object still missing is explained (missingObject).
func (r *Repo) read(h plumbing.Hash, f func() error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	err := f()
	if errors.Is(err, plumbing.ErrObjectNotFound) && r.packsChanged() {
		err = f()
	}
	if errors.Is(err, plumbing.ErrObjectNotFound) && r.partial() {
		if err := r.fetch([]plumbing.Hash{h}); err != nil {
			return err
		}
		r.packsChanged()
		err = f()
	}
	return r.missingObject(err)
}

// missingObject adds to a missing object's error the likely reason, an
// alternate object directory that is gone.
func (r *Repo) missingObject(err error) error {
	if hint := r.stores.missingHint(); hint != "" && errors.Is(err, plumbing.ErrObjectNotFound) {
		return fmt.Errorf("%w (%s)", err, hint)
	}
	return err
}

// packsChanged reports whether the set of pack files differs from the one
// last indexed, and if so makes the store index them again. r.mu is held.
func (r *Repo) packsChanged() bool {
	now := r.objs.packNames()
	if now == r.packs {
		return false
	}
	r.packs = now
	r.st.Reindex()
	r.objs.reset()
	return true
}

// loadCommit reads and decodes a commit object. A missing commit in a shallow
// clone is reported with ErrShallow.
func (r *Repo) loadCommit(h plumbing.Hash) (Commit, error) {
	var c *object.Commit
	err := r.read(h, func() (err error) {
		c, err = object.GetCommit(r.objs, h)
		return err
	})
	if err != nil {
		if errors.Is(err, plumbing.ErrObjectNotFound) && r.IsShallow() {
			return Commit{}, fmt.Errorf("commit %s is not in this shallow clone: %w", short(h), ErrShallow)
		}
		return Commit{}, fmt.Errorf("read commit %s: %w", short(h), err)
	}
	out := Commit{
		Hash:      c.Hash,
		Parents:   c.ParentHashes,
		Subject:   subject(c.Message),
		Author:    fmt.Sprintf("%s <%s>", c.Author.Name, c.Author.Email),
		When:      c.Author.When,
		Committed: c.Committer.When,
		Tree:      c.TreeHash,
		Reverts:   revertsNamed(c.Message),
	}
	if len(c.ParentHashes) > 0 {
		out.Parent = c.ParentHashes[0]
	}
	return out, nil
}

// loadTree reads a tree object; the zero hash is the empty tree.
func (r *Repo) loadTree(h plumbing.Hash) ([]object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	var t *object.Tree
	err := r.read(h, func() (err error) {
		t, err = object.GetTree(r.objs, h)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", short(h), err)
	}
	return t.Entries, nil
}

// objectType returns the type of an object without decoding it.
func (r *Repo) objectType(h plumbing.Hash) (plumbing.ObjectType, error) {
	var o plumbing.EncodedObject
	err := r.read(h, func() (err error) {
		o, err = r.objs.EncodedObject(plumbing.AnyObject, h)
		return err
	})
	if err != nil {
		return plumbing.InvalidObject, err
	}
	return o.Type(), nil
}

// tagTarget reads an annotated tag's target.
func (r *Repo) tagTarget(h plumbing.Hash) (plumbing.Hash, error) {
	var t *object.Tag
	err := r.read(h, func() (err error) {
		t, err = object.GetTag(r.objs, h)
		return err
	})
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("read tag %s: %w", short(h), err)
	}
	return t.Target, nil
}

// peelToCommit follows annotated tags (a tag of a tag too) down to a commit.
func (r *Repo) peelToCommit(h plumbing.Hash) (plumbing.Hash, error) {
	for depth := 0; depth < 16; depth++ {
		typ, err := r.objectType(h)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		switch typ {
		case plumbing.CommitObject:
			return h, nil
		case plumbing.TagObject:
			if h, err = r.tagTarget(h); err != nil {
				return plumbing.ZeroHash, err
			}
		default:
			return plumbing.ZeroHash, fmt.Errorf("%s is a %s, not a commit", short(h), typ)
		}
	}
	return plumbing.ZeroHash, fmt.Errorf("tag chain at %s is too deep", short(h))
}

func subject(msg string) string {
	msg = strings.TrimLeft(msg, "\r\n")
	line, _, _ := strings.Cut(msg, "\n")
	return strings.TrimSpace(line)
}

// revertLine matches git revert's line, "This reverts commit X." (and
// "This reverts commit X, reversing changes made to Y." for a merge).
var revertLine = lazyre.New(`(?m)^[ \t]*This reverts commit ([0-9a-f]{7,40})\b`)

// revertsNamed returns the commits a message says it reverts.
func revertsNamed(msg string) []string {
	if !strings.Contains(msg, "This reverts commit ") {
		return nil
	}
	var out []string
	for _, m := range revertLine.FindAllStringSubmatch(msg, 8) {
		out = append(out, m[1])
	}
	return out
}

// short abbreviates a hash for messages.
func short(h plumbing.Hash) string {
	if h.IsZero() {
		return "(none)"
	}
	return h.String()[:12]
}
