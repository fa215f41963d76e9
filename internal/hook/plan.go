package hook

import (
	"context"
	"errors"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gitcmd"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// Target is what one pushed ref asks the gate to check: the commits
// Base..Head, unless Skip says why there is nothing to check.
type Target struct {
	Update     RefUpdate
	Base, Head plumbing.Hash
	// BaseFrom says how Base was chosen, for messages: "the remote's
	// 1a2b3c4d", "merge-base with origin/main".
	BaseFrom string
	// Skip, when set, says why nothing is analyzed for this ref.
	Skip string
	// SameAs names an earlier ref of the push with the same range, analyzed
	// once for both.
	SameAs string
}

// Planner turns ref updates into targets.
type Planner struct {
	Repo *gitrepo.Repo
	// Remote is the remote's name as git passes it to the hook (its URL when
	// the push names no remote).
	Remote string
	// RemoteTips lists the remote-tracking refs (refs/remotes/...) and their
	// commits. Nil runs `git for-each-ref` on the repository; it is asked only
	// for tags and for new refs with no default branch to compare with.
	RemoteTips func(ctx context.Context) (map[string]plumbing.Hash, error)

	tips map[string]plumbing.Hash
}

// Plan decides the range each update pushes:
//
//   - a deletion pushes nothing;
//   - an update pushes remote..local, from their merge-base when the push
//     rewrites the remote's history (a force push), and nothing when it only
//     rewinds it;
//   - a new ref pushes what it has beyond the remote's default branch: the
//     merge-base with refs/remotes/REMOTE/HEAD, else REMOTE/main,
//     REMOTE/master, else the local default branch (origin/HEAD, origin/main,
//     origin/master, main, master); with none of them, the merge-base with
//     the newest remote-tracking ref that shares its history; with none,
//     nothing is analyzed and Skip says so;
//   - a tag is checked like a new ref, unless its commit is already on one of
//     the remote's tracking refs or on a branch of the same push: a tag of
//     commits the remote has, or is getting with a branch, brings nothing new.
//
// Two refs with the same range are analyzed once.
func (p *Planner) Plan(ctx context.Context, updates []RefUpdate) ([]Target, error) {
	var out []Target
	seen := map[[2]plumbing.Hash]string{}
	var heads []plumbing.Hash // the branch heads of this push
	for _, u := range updates {
		if !u.Deletes() && !u.IsTag() && u.LocalSHA != "" {
			if h, err := p.Repo.Resolve(u.LocalSHA); err == nil {
				heads = append(heads, h)
			}
		}
	}
	for _, u := range updates {
		t, err := p.plan(ctx, u, heads)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", u.Name(), err)
		}
		if t.Skip == "" && t.Base == t.Head {
			t.Skip = "no new commits to check (" + t.BaseFrom + " is the pushed commit)"
		}
		if t.Skip == "" {
			k := [2]plumbing.Hash{t.Base, t.Head}
			if first, ok := seen[k]; ok {
				t.SameAs = first
			} else {
				seen[k] = u.Name()
			}
		}
		out = append(out, t)
	}
	return out, nil
}

func (p *Planner) plan(ctx context.Context, u RefUpdate, heads []plumbing.Hash) (Target, error) {
	t := Target{Update: u}
	if u.Deletes() {
		t.Skip = "deletes the remote ref: nothing to check"
		return t, nil
	}
	rev := u.LocalSHA
	if rev == "" {
		rev = u.LocalRef
	}
	head, err := p.Repo.Resolve(rev)
	if err != nil {
		return t, err
	}
	t.Head = head
	if u.IsTag() {
		if on, err := p.alreadyHas(ctx, head, heads); err != nil {
			return t, err
		} else if on != "" {
			t.Skip = "tag of a commit already on " + on + ": nothing new to check"
			return t, nil
		}
		return p.newRef(ctx, t)
	}
	if !u.Creates() {
		remote := plumbing.NewHash(u.RemoteSHA)
		mb, err := p.Repo.MergeBase(remote, head)
		switch {
		case errors.Is(err, gitrepo.ErrShallow):
			return t, err
		case err == nil && mb == head && remote != head:
			t.Skip = "rewinds the remote ref to an older commit: no new commits to check"
			return t, nil
		case err == nil && mb == remote:
			t.Base, t.BaseFrom = remote, "the remote's "+short(remote)
			return t, nil
		case err == nil:
			t.Base, t.BaseFrom = mb, "merge-base with the remote's "+short(remote)+" (a force push)"
			return t, nil
		}
		// The remote's commit is not here (not fetched) or shares no
		// history: compare with the default branch, as for a new ref.
		t, err = p.newRef(ctx, t)
		if t.Skip == "" && err == nil {
			t.BaseFrom += " (the remote's " + short(remote) + " is not in this repository's history)"
		}
		return t, err
	}
	return p.newRef(ctx, t)
}

// newRef sets the base of a ref the remote does not have.
func (p *Planner) newRef(ctx context.Context, t Target) (Target, error) {
	var names []string
	if remoteName.MatchString(p.Remote) {
		for _, b := range []string{"HEAD", "main", "master"} {
			names = append(names, "refs/remotes/"+p.Remote+"/"+b)
		}
	}
	if d, err := p.Repo.DefaultBranch(); err == nil {
		names = append(names, d)
	}
	for _, name := range names {
		tip, err := p.Repo.Resolve(name)
		if err != nil {
			continue
		}
		display := strings.TrimPrefix(name, "refs/remotes/")
		mb, err := p.Repo.MergeBase(tip, t.Head)
		switch {
		case errors.Is(err, gitrepo.ErrNoMergeBase):
			t.Skip = "shares no history with " + display + ": not analyzed"
			return t, nil
		case err != nil:
			return t, err
		}
		if mb == t.Head {
			t.Skip = "no new commits to check: the pushed commit is already on " + display
			return t, nil
		}
		t.Base, t.BaseFrom = mb, "merge-base with "+display
		return t, nil
	}
	// No default branch: the nearest merge-base with any remote-tracking ref
	// (one that descends from the others; the newest when they diverge).
	tips, err := p.remoteTips(ctx)
	if err != nil {
		return t, err
	}
	tracking := make([]string, 0, len(tips))
	for name := range tips {
		tracking = append(tracking, name)
	}
	sort.Strings(tracking)
	var best plumbing.Hash
	from := ""
	for _, name := range tracking {
		mb, err := p.Repo.MergeBase(tips[name], t.Head)
		if err != nil || mb == best {
			continue
		}
		if from == "" || p.nearer(mb, best) {
			best, from = mb, name
		}
	}
	if from == "" {
		t.Skip = "a new ref with nothing to compare it with (none of " + strings.Join(defaultNames(names), ", ") +
			" exists, and no remote-tracking ref shares its history): not analyzed; check it with 'ralph-gate analyze BASE " + short(t.Head) + "'"
		return t, nil
	}
	from = strings.TrimPrefix(from, "refs/remotes/")
	if best == t.Head {
		t.Skip = "no new commits to check: the pushed commit is already on " + from
		return t, nil
	}
	t.Base, t.BaseFrom = best, "merge-base with "+from
	return t, nil
}

// nearer reports whether a is a better base than b: a descends from b, or,
// when neither descends from the other, a was committed later.
func (p *Planner) nearer(a, b plumbing.Hash) bool {
	if mb, err := p.Repo.MergeBase(a, b); err == nil {
		switch mb {
		case b:
			return true
		case a:
			return false
		}
	}
	ca, errA := p.Repo.Commit(a)
	cb, errB := p.Repo.Commit(b)
	return errA == nil && errB == nil && ca.Committed.After(cb.Committed)
}

// alreadyHas names what already holds commit: a tracking ref of the remote,
// or a branch pushed along with it. "" when none does.
func (p *Planner) alreadyHas(ctx context.Context, commit plumbing.Hash, heads []plumbing.Hash) (string, error) {
	for _, h := range heads {
		if h == commit {
			return "a branch of this push", nil
		}
		if mb, err := p.Repo.MergeBase(commit, h); err == nil && mb == commit {
			return "a branch of this push", nil
		}
	}
	tips, err := p.remoteTips(ctx)
	if err != nil {
		return "", err
	}
	prefix := "refs/remotes/" + p.Remote + "/"
	for name, tip := range tips {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		if mb, err := p.Repo.MergeBase(commit, tip); err == nil && mb == commit {
			return strings.TrimPrefix(name, "refs/remotes/"), nil
		}
	}
	return "", nil
}

func (p *Planner) remoteTips(ctx context.Context) (map[string]plumbing.Hash, error) {
	if p.tips != nil {
		return p.tips, nil
	}
	list := p.RemoteTips
	if list == nil {
		list = p.gitRemoteTips
	}
	tips, err := list(ctx)
	if err != nil {
		return nil, err
	}
	if tips == nil {
		tips = map[string]plumbing.Hash{}
	}
	p.tips = tips
	return tips, nil
}

// gitRemoteTips lists refs/remotes/ with git, which knows every ref storage
// (loose, packed, reftable). Symbolic refs (origin/HEAD) are left out.
func (p *Planner) gitRemoteTips(ctx context.Context) (map[string]plumbing.Hash, error) {
	out, err := gitcmd.Run(ctx, "", gitcmd.Options{}, "--git-dir="+p.Repo.GitDir(), "for-each-ref",
		"--format=%(objectname) %(*objectname) %(symref) %(refname)", "refs/remotes/")
	if err != nil {
		return nil, fmt.Errorf("list remote-tracking refs: %w", err)
	}
	tips := map[string]plumbing.Hash{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		switch len(f) {
		case 2: // sha, name
			tips[f[1]] = plumbing.NewHash(f[0])
		case 3: // sha, peeled sha of an annotated tag, name; or sha, symref, name
			if isSHA(f[1]) {
				tips[f[2]] = plumbing.NewHash(f[1])
			}
		}
	}
	return tips, nil
}

// remoteName matches what can be a remote's name rather than a URL or a path.
var remoteName = lazyre.New(`^[A-Za-z0-9_][A-Za-z0-9._-]*(/[A-Za-z0-9_][A-Za-z0-9._-]*)*$`)

// defaultNames lists the branches newRef looked for, short and once each.
func defaultNames(names []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range append(names, "origin/HEAD", "origin/main", "origin/master", "main", "master") {
		n = strings.TrimPrefix(n, "refs/remotes/")
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

func short(h plumbing.Hash) string { return h.String()[:12] }
