package gitrepo

import (
	"container/heap"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// node is a commit during a walk, with the flags the walk paints on it.
type node struct {
	Commit
	committed int64 // Commit.Committed in Unix seconds, for the queue
	flags     uint8
	queued    bool
	visited   bool
}

const (
	flagParent1       uint8 = 1 << iota // reachable from the first side
	flagParent2                         // reachable from the second side
	flagStale                           // below a merge base found already
	flagResult                          // a merge base candidate
	flagUninteresting                   // reachable from Range's base
)

// walker loads each commit once and hands them out newest first by committer
// date, the order in which git's walks can stop early.
type walker struct {
	r     *Repo
	nodes map[plumbing.Hash]*node
	queue nodeQueue
}

func newWalker(r *Repo) *walker {
	return &walker{r: r, nodes: map[plumbing.Hash]*node{}}
}

func (w *walker) load(h plumbing.Hash) (*node, error) {
	if n, ok := w.nodes[h]; ok {
		return n, nil
	}
	c, err := w.r.loadCommit(h)
	if err != nil {
		return nil, err
	}
	n := &node{Commit: c, committed: c.Committed.Unix()}
	w.nodes[h] = n
	return n, nil
}

// parents returns a node's parents, none past a shallow clone's boundary.
func (w *walker) parents(n *node) []plumbing.Hash {
	if w.r.shallow[n.Hash] {
		return nil
	}
	return n.Parents
}

func (w *walker) push(n *node) {
	if !n.queued {
		n.queued = true
		heap.Push(&w.queue, n)
	}
}

func (w *walker) pop() *node {
	n := heap.Pop(&w.queue).(*node)
	n.queued = false
	return n
}

// nodeQueue is a max-heap on committer date; ties go to the hash for a
// deterministic order.
type nodeQueue []*node

func (q nodeQueue) Len() int { return len(q) }
func (q nodeQueue) Less(i, j int) bool {
	if q[i].committed != q[j].committed {
		return q[i].committed > q[j].committed
	}
	return q[i].Hash.String() < q[j].Hash.String()
}
func (q nodeQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *nodeQueue) Push(x any)   { *q = append(*q, x.(*node)) }
func (q *nodeQueue) Pop() any {
	old := *q
	n := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	return n
}

// MergeBase returns the best common ancestor of a and b, as git merge-base
// does: commits are painted from both sides, newest first, and the walk ends
// when every commit still queued lies below a common ancestor already found.
// When several best ancestors exist (criss-cross merges) the most recently
// committed one is returned. Errors wrap ErrNoMergeBase, or ErrShallow when a
// shallow clone's history ends before the answer.
func (r *Repo) MergeBase(a, b plumbing.Hash) (plumbing.Hash, error) {
	if a == b {
		if _, err := r.loadCommit(a); err != nil {
			return plumbing.ZeroHash, fmt.Errorf("merge-base: %w", err)
		}
		return a, nil
	}
	w := newWalker(r)
	na, err := w.load(a)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("merge-base: %w", err)
	}
	nb, err := w.load(b)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("merge-base: %w", err)
	}
	na.flags |= flagParent1
	nb.flags |= flagParent2
	w.push(na)
	w.push(nb)
	var results []*node
	hitShallow := false
	for w.queue.Len() > 0 && !allStale(w.queue) {
		n := w.pop()
		f := n.flags & (flagParent1 | flagParent2 | flagStale)
		if f == flagParent1|flagParent2 {
			if n.flags&flagResult == 0 {
				n.flags |= flagResult
				results = append(results, n)
			}
			f |= flagStale
		}
		if r.shallow[n.Hash] && f&flagStale == 0 {
			hitShallow = true
		}
		for _, ph := range w.parents(n) {
			p, err := w.load(ph)
			if err != nil {
				return plumbing.ZeroHash, fmt.Errorf("merge-base of %s and %s: %w", short(a), short(b), err)
			}
			if p.flags&f == f {
				continue
			}
			p.flags |= f
			w.push(p)
		}
	}
	var best *node
	for _, n := range results {
		if n.flags&flagStale != 0 { // an ancestor of another result
			continue
		}
		if best == nil || n.committed > best.committed {
			best = n
		}
	}
	if best == nil {
		if hitShallow {
			return plumbing.ZeroHash, fmt.Errorf("merge-base of %s and %s: history ends at a shallow boundary: %w", short(a), short(b), ErrShallow)
		}
		return plumbing.ZeroHash, fmt.Errorf("%s and %s: %w", short(a), short(b), ErrNoMergeBase)
	}
	return best.Hash, nil
}

// allStale reports whether every queued commit is below a found merge base.
func allStale(q nodeQueue) bool {
	for _, n := range q {
		if n.flags&flagStale == 0 {
			return false
		}
	}
	return true
}
