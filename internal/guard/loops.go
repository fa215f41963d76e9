package guard

import (
	"context"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// ActiveLoop returns the loop an agent works in: the running loop of the
// work tree (the most recently started when there are several), or nil.
// A paused or finished loop is not guarded: nobody should be working in it.
func ActiveLoop(store *state.Store) (*state.Snapshot, error) {
	ids, err := store.Loops()
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	var best *state.Snapshot
	for _, id := range ids {
		snap, err := store.Load(id)
		if err != nil {
			continue
		}
		if snap.State.Status != state.StatusRunning {
			continue
		}
		if best == nil || snap.State.StartedAt.After(best.State.StartedAt) {
			best = snap
		}
	}
	return best, nil
}

// repoHistory answers LoopHistory from the repository and the active loop,
// loaded on first use: most commands never ask.
type repoHistory struct {
	repo   *gitrepo.Repo
	store  *state.Store
	loaded bool
	base   plumbing.Hash
}

// NewLoopHistory returns the LoopHistory of the work tree's active loop.
func NewLoopHistory(repo *gitrepo.Repo, store *state.Store) LoopHistory {
	return &repoHistory{repo: repo, store: store}
}

func (h *repoHistory) BeforeBaseline(rev string) (bool, string, error) {
	if !h.loaded {
		h.loaded = true
		if snap, err := ActiveLoop(h.store); err == nil && snap != nil {
			h.base = plumbing.NewHash(snap.State.RalphGate.BaselineCommit)
		}
	}
	if h.base.IsZero() {
		return false, "", nil
	}
	target, err := h.repo.Resolve(rev)
	if err != nil {
		// Revision syntax the reader does not know (@{1}, :/msg): ask git.
		out, gerr := gitOutput(context.Background(), h.repo.Root(), "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
		if gerr != nil {
			return false, "", err
		}
		target = plumbing.NewHash(strings.TrimSpace(out))
	}
	name := short(h.base.String())
	if target == h.base {
		return false, name, nil
	}
	mb, err := h.repo.MergeBase(h.base, target)
	if err != nil {
		return true, name, nil // unrelated history: the baseline is not behind it
	}
	return mb != h.base, name, nil
}
