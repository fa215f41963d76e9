package ghaction

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gitcmd"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// Range is a resolved range and the repository it lives in.
type Range struct {
	Base, Head plumbing.Hash
	// Root is the repository's work tree and GitDir its git directory.
	Root, GitDir string
	// Fetches counts the git fetches it took to get the history.
	Fetches int
}

// ShallowError says the clone lacks the history of the range and fetching did
// not bring it. Its message is the one line the user needs.
type ShallowError struct {
	What  string // "BASE 1a2b3c4d5e6f", "the history between ..."
	Fetch string // the last git fetch error line, if a fetch failed
}

func (e *ShallowError) Error() string {
	msg := e.What + " is not in this clone"
	if e.Fetch != "" {
		msg += " and git fetch could not get it (" + e.Fetch + ")"
	} else {
		msg += " even after fetching more history"
	}
	return msg + ": set fetch-depth: 0 on actions/checkout"
}

// Git runs the real git for what reading objects cannot do: fetching history.
type Git struct {
	// Dir is the repository's directory; Remote the remote to fetch from
	// ("origin", as actions/checkout names it, when empty).
	Dir, Remote string
	// Log receives one line per fetch.
	Log io.Writer
}

// fetch runs git fetch with args after the remote's name; the error is git's
// last line of complaint.
func (g Git) fetch(ctx context.Context, flags []string, wants []string) error {
	remote := orText(g.Remote, "origin")
	args := append([]string{"-C", g.Dir, "fetch", "--no-tags", "--no-recurse-submodules", "--quiet"}, flags...)
	args = append(append(args, remote), wants...)
	if g.Log != nil {
		fmt.Fprintf(g.Log, "ralph-gate: git %s\n", strings.Join(args[2:], " "))
	}
	// Hooks and an fsmonitor from the repository's config never run.
	_, err := gitcmd.Run(ctx, "", gitcmd.Options{}, args...)
	var ge *gitcmd.Error
	if errors.As(err, &ge) {
		if line := ge.LastLine(); line != "" {
			return errors.New(line)
		}
		return ge.Err
	}
	return err
}

// deepenSteps are the fetches tried, in order, while the range's history is
// missing from a shallow clone: deepen a little, a lot, then fetch it all.
// --deepen never shortens history the clone already has, as --depth can.
var deepenSteps = [][]string{{"--deepen=50"}, {"--deepen=1000"}, {"--unshallow"}}

// Resolve finds spec's range in the repository at git.Dir. When a commit or
// the history between them is missing (a shallow checkout, or a commit the
// checkout did not fetch) it fetches the commits from the remote, deepening
// step by step, and fails with a *ShallowError when that does not bring them.
// Other errors (an unknown branch name, a BASE that is not an ancestor of
// HEAD) come back as gitrepo returns them.
func Resolve(ctx context.Context, spec Spec, git Git) (Range, error) {
	for fetches := 0; ; fetches++ {
		r, shallow, err := tryResolve(git.Dir, spec)
		if err == nil {
			r.Fetches = fetches
			return r, nil
		}
		missing, ok := missingHistory(err, spec)
		if !ok {
			return Range{}, err
		}
		steps := [][]string{nil} // a complete clone that lacks a commit: fetch it once
		if shallow {
			steps = deepenSteps
		}
		if fetches >= len(steps) {
			return Range{}, &ShallowError{What: missing}
		}
		if ferr := git.fetch(ctx, steps[fetches], spec.wants()); ferr != nil {
			return Range{}, &ShallowError{What: missing, Fetch: ferr.Error()}
		}
	}
}

// tryResolve resolves the range once and checks its history is all there.
func tryResolve(dir string, spec Spec) (Range, bool, error) {
	repo, err := gitrepo.Open(dir)
	if err != nil {
		return Range{}, false, err
	}
	defer repo.Close()
	shallow := repo.IsShallow()
	head, err := repo.Resolve(orText(spec.Head, "HEAD"))
	if err != nil {
		return Range{}, shallow, fmt.Errorf("HEAD: %w", err)
	}
	var base plumbing.Hash
	switch {
	case spec.Base == "":
		branch := spec.defaultRef()
		if _, rerr := repo.Resolve(branch); branch == "" || rerr != nil && !shallow {
			// No remote-tracking branch in a complete clone (a repository
			// without origin): the local default branch, when there is one.
			if local, derr := repo.DefaultBranch(); derr == nil {
				branch = local
			} else if branch == "" {
				return Range{}, shallow, fmt.Errorf("no BASE: %w; give the base input", derr)
			}
		}
		if base, err = mergeBase(repo, branch, head); err != nil {
			return Range{}, shallow, err
		}
	case spec.MergeBase:
		if base, err = mergeBase(repo, spec.Base, head); err != nil {
			return Range{}, shallow, err
		}
	default:
		if base, err = repo.Resolve(spec.Base); err != nil {
			return Range{}, shallow, fmt.Errorf("BASE: %w", err)
		}
	}
	if _, err := repo.Range(base, head); err != nil {
		return Range{}, shallow, err
	}
	return Range{Base: base, Head: head, Root: repo.Root(), GitDir: repo.GitDir()}, shallow, nil
}

func mergeBase(repo *gitrepo.Repo, rev string, head plumbing.Hash) (plumbing.Hash, error) {
	h, err := repo.Resolve(rev)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("BASE: %w", err)
	}
	mb, err := repo.MergeBase(h, head)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("BASE: merge-base of %s and HEAD: %w", rev, err)
	}
	return mb, nil
}

// missingHistory tells whether err is history a fetch could bring, and names
// what is missing.
func missingHistory(err error, spec Spec) (string, bool) {
	var unknown *gitrepo.UnknownRevisionError
	if errors.As(err, &unknown) {
		if !fetchable(unknown.Rev) {
			return "", false
		}
		return shortRev(unknown.Rev), true
	}
	if errors.Is(err, gitrepo.ErrShallow) {
		base := spec.Base
		if base == "" {
			base = orText(spec.defaultRef(), "the default branch")
		}
		return fmt.Sprintf("the history from %s to %s", shortRev(base), shortRev(orText(spec.Head, "HEAD"))), true
	}
	return "", false
}

// fetchable reports whether a fetch can bring rev: a full SHA, or a branch of
// origin.
func fetchable(rev string) bool {
	return isSHA(rev) || strings.HasPrefix(rev, "origin/")
}

// defaultRef names the remote-tracking branch of the default branch.
func (s Spec) defaultRef() string {
	if s.DefaultBranch == "" {
		return ""
	}
	return "origin/" + s.DefaultBranch
}

// wants lists what to fetch: the range's SHAs, and branches as refspecs that
// update their remote-tracking branch.
func (s Spec) wants() []string {
	var out []string
	revs := []string{s.Head, s.Base}
	if s.Base == "" {
		revs[1] = s.defaultRef()
	}
	for _, r := range revs {
		switch {
		case isSHA(r):
			out = append(out, r)
		case strings.HasPrefix(r, "origin/"):
			b := strings.TrimPrefix(r, "origin/")
			out = append(out, "+refs/heads/"+b+":refs/remotes/origin/"+b)
		}
	}
	return out
}

func shortRev(rev string) string {
	if isSHA(rev) {
		return rev[:12]
	}
	return rev
}
