package gitrepo

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// NotAncestorError says a range's base is not reachable from its head. It
// wraps ErrNotAncestor.
type NotAncestorError struct {
	Base, Head plumbing.Hash
}

// Error says which end is not an ancestor of which.
func (e *NotAncestorError) Error() string {
	return fmt.Sprintf("BASE %s is not an ancestor of HEAD %s", short(e.Base), short(e.Head))
}

// Unwrap returns ErrNotAncestor.
func (e *NotAncestorError) Unwrap() error { return ErrNotAncestor }

const (
	// firstParentSlack is how far below BASE's committer date the first-parent
	// walk keeps looking for BASE before it hands over to the general walk:
	// descendants are normally newer than their ancestors, give or take clock
	// skew.
	firstParentSlack = 24 * 60 * 60
	// walkSlop is how many commits git's range walk goes on popping once only
	// uninteresting ones are queued, to survive small clock skews.
	walkSlop = 5
)

// Range returns the commits of base..head, oldest first; each is analyzed
// against its first parent (Commit.Parent).
//
// When base is on head's first-parent chain, the range is that chain: commits
// that came in through the second parent of a merge are not listed, the merge
// itself is (compared with its first parent, it shows what the merge brought).
// Otherwise the range is every commit reachable from head and not from base,
// merges included, parents before children. A zero base means the whole
// first-parent history of head. Range reads only the commits between base and
// head (plus a few around base), never the whole history.
//
// Errors: *NotAncestorError (wrapping ErrNotAncestor) when base is not
// reachable from head; an error wrapping ErrShallow when base is missing from
// a shallow clone or the history ends at a shallow boundary before base.
func (r *Repo) Range(base, head plumbing.Hash) ([]Commit, error) {
	w := newWalker(r)
	nh, err := w.load(head)
	if err != nil {
		return nil, fmt.Errorf("range: HEAD: %w", err)
	}
	if base == head {
		return []Commit{}, nil
	}
	var nb *node
	if !base.IsZero() {
		if nb, err = w.load(base); err != nil {
			if errors.Is(err, ErrShallow) {
				return nil, fmt.Errorf("BASE %s is not in this shallow clone: %w", short(base), ErrShallow)
			}
			return nil, fmt.Errorf("range: BASE: %w", err)
		}
	}
	chain, ok, err := w.firstParentChain(nh, nb)
	if err != nil {
		return nil, err
	}
	if ok {
		return chain, nil
	}
	return w.limitedRange(nh, nb)
}

// firstParentChain follows first parents from head. ok is false when base was
// not met before the commits became older than base (or the root was reached).
func (w *walker) firstParentChain(head, base *node) ([]Commit, bool, error) {
	var chain []Commit
	for n := head; ; {
		if base != nil && n.Hash == base.Hash {
			return reversed(chain), true, nil
		}
		if base != nil && n.committed < base.committed-firstParentSlack {
			return nil, false, nil
		}
		chain = append(chain, n.Commit)
		if w.r.shallow[n.Hash] {
			if base == nil {
				return nil, false, fmt.Errorf("history of HEAD %s ends at shallow commit %s: %w", short(head.Hash), short(n.Hash), ErrShallow)
			}
			return nil, false, nil
		}
		if len(n.Parents) == 0 {
			return reversed(chain), base == nil, nil
		}
		next, err := w.load(n.Parents[0])
		if err != nil {
			return nil, false, fmt.Errorf("range: %w", err)
		}
		n = next
	}
}

// limitedRange is git's limit_list: walk newest first from head (interesting)
// and base (uninteresting), spreading uninteresting to ancestors, until only
// uninteresting commits remain queued.
func (w *walker) limitedRange(head, base *node) ([]Commit, error) {
	if base == nil {
		return nil, errors.New("range: no BASE to limit the walk")
	}
	interesting := 0 // queued commits not marked uninteresting
	push := func(n *node) {
		if !n.queued && n.flags&flagUninteresting == 0 {
			interesting++
		}
		w.push(n)
	}
	mark := func(n *node) {
		stack := []*node{n}
		for len(stack) > 0 {
			m := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if m.flags&flagUninteresting != 0 {
				continue
			}
			m.flags |= flagUninteresting
			if m.queued {
				interesting--
			}
			if !m.visited {
				continue
			}
			for _, ph := range w.parents(m) {
				if p, ok := w.nodes[ph]; ok {
					stack = append(stack, p)
				}
			}
		}
	}
	mark(base)
	push(base)
	push(head)

	var processed []*node
	reached, hitShallow := false, false
	slop := walkSlop
	for w.queue.Len() > 0 {
		if interesting == 0 {
			if slop == 0 {
				break
			}
			slop--
		} else {
			slop = walkSlop
		}
		n := w.pop()
		n.visited = true
		if n.flags&flagUninteresting == 0 {
			interesting--
			processed = append(processed, n)
			if w.r.shallow[n.Hash] {
				hitShallow = true
			}
		}
		for _, ph := range w.parents(n) {
			p, err := w.load(ph)
			if err != nil {
				return nil, fmt.Errorf("range: %w", err)
			}
			if n.flags&flagUninteresting != 0 {
				mark(p)
			} else if ph == base.Hash {
				reached = true
			}
			if !p.visited {
				push(p)
			}
		}
	}
	if !reached {
		if hitShallow {
			return nil, fmt.Errorf("history of HEAD %s ends at a shallow boundary before BASE %s: %w", short(head.Hash), short(base.Hash), ErrShallow)
		}
		return nil, &NotAncestorError{Base: base.Hash, Head: head.Hash}
	}
	in := map[plumbing.Hash]*node{}
	for _, n := range processed {
		if n.flags&flagUninteresting == 0 {
			in[n.Hash] = n
		}
	}
	// The first-parent chain may still reach base (the fast path gave up on
	// a clock skew): prefer it, as Range promises.
	var chain []Commit
	for n := head; n != nil; {
		chain = append(chain, n.Commit)
		if n.Parent == base.Hash {
			return reversed(chain), nil
		}
		n = in[n.Parent]
	}
	return topoOrder(head, in), nil
}

// topoOrder lists the commits of in, parents before children, by a
// depth-first walk from head that follows first parents first.
func topoOrder(head *node, in map[plumbing.Hash]*node) []Commit {
	type frame struct {
		n    *node
		next int
	}
	out := make([]Commit, 0, len(in))
	done := map[plumbing.Hash]bool{head.Hash: true}
	stack := []frame{{n: head}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(top.n.Parents) {
			ph := top.n.Parents[top.next]
			top.next++
			if p, ok := in[ph]; ok && !done[ph] {
				done[ph] = true
				stack = append(stack, frame{n: p})
			}
			continue
		}
		out = append(out, top.n.Commit)
		stack = stack[:len(stack)-1]
	}
	return out
}

func reversed(c []Commit) []Commit {
	out := make([]Commit, len(c))
	for i := range c {
		out[len(c)-1-i] = c[i]
	}
	return out
}
