package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	format "github.com/go-git/go-git/v5/plumbing/format/config"

	"github.com/ralph-gate/ralph-gate/internal/gitcmd"
)

// A partial clone (git clone --filter=blob:none) lacks blobs, or trees,
// that its promisor remote promises to send on demand. git fetches each one
// the moment it is read; so does Repo, through git itself, since go-git
// cannot fetch single objects: a missing object is fetched with the command
// git's own lazy fetch runs, and Prefetch fetches the blobs a diff needs in
// one go. As for git, a repository is a partial clone when a promisor remote
// is configured; one without promisor packs never reads its configuration
// for it, nor runs git.

// ErrNotFetched: an object a partial clone lacks could not be fetched from
// its promisor remote. The message says what to do.
var ErrNotFetched = errors.New("missing from this partial clone")

// fetchTimeout bounds one fetch from a promisor remote.
const fetchTimeout = 10 * time.Minute

// IsPartial reports whether the repository is a partial clone: a pack came
// from a promisor remote, and objects missing are fetched from it.
func (r *Repo) IsPartial() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.partial()
}

// Prefetch makes sure, in a partial clone, that the objects hs are here,
// fetching the missing ones from the promisor remote in one git fetch; in
// any other repository it does nothing. A failed fetch wraps ErrNotFetched.
func (r *Repo) Prefetch(hs []plumbing.Hash) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.partial() {
		return nil
	}
	var missing []plumbing.Hash
	seen := map[plumbing.Hash]bool{}
	for _, h := range hs {
		if h.IsZero() || seen[h] {
			continue
		}
		seen[h] = true
		if r.objs.HasEncodedObject(h) != nil {
			missing = append(missing, h)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	if err := r.fetch(missing); err != nil {
		return err
	}
	r.packsChanged()
	return nil
}

// fetch fetches objects from the promisor remotes, as git's lazy fetch does
// (promisor-remote.c): each remote in turn, until one has sent them all.
// r.mu is held and partial has returned true.
func (r *Repo) fetch(hs []plumbing.Hash) error {
	what, it := fmt.Sprintf("object %s is", short(hs[0])), "it"
	if len(hs) > 1 {
		what, it = fmt.Sprintf("%d objects (%s and %d more) are", len(hs), short(hs[0]), len(hs)-1), "them"
	}
	if r.promisorsErr != nil {
		return fmt.Errorf("%s %w, and its promisor remote could not be read: %v", what, ErrNotFetched, r.promisorsErr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), fetchTimeout)
	defer cancel()
	var ids strings.Builder
	for _, h := range hs {
		ids.WriteString(h.String())
		ids.WriteByte('\n')
	}
	var failed []string
	for _, remote := range r.promisors {
		_, err := gitcmd.Run(ctx, "", gitcmd.Options{
			Config: []string{"-c", "fetch.negotiationAlgorithm=noop"},
			Stdin:  strings.NewReader(ids.String()),
		}, "--git-dir="+r.gitDir, "fetch", "--quiet", remote, "--no-tags", "--no-write-fetch-head",
			"--recurse-submodules=no", "--filter=blob:none", "--stdin")
		if err == nil {
			return nil
		}
		reason := err.Error()
		var ge *gitcmd.Error
		if errors.As(err, &ge) && ge.FirstLine() != "" {
			reason = ge.FirstLine()
		}
		failed = append(failed, fmt.Sprintf("from promisor remote %q failed: %s", remote, reason))
	}
	return fmt.Errorf("%s %w, and fetching %s %s; make the remote reachable and run again, or clone without --filter",
		what, ErrNotFetched, it, strings.Join(failed, ", and "))
}

// partial reports whether a missing object may be fetched, by git's rule:
// a promisor remote is configured. The configuration is read once, and only
// when a pack came from a promisor remote (a partial clone always has one),
// so that no other repository pays for it. r.mu is held.
func (r *Repo) partial() bool {
	if !r.objs.promisorPacks() {
		return false
	}
	if !r.promisorsRead {
		r.promisorsRead = true
		r.promisors, r.promisorsErr = promisorRemotes(r.configFile)
	}
	return len(r.promisors) > 0 || r.promisorsErr != nil
}

// promisorRemotes names the remotes a partial clone fetches missing
// objects from, in git's order (promisor-remote.c): every remote with
// remote.<name>.promisor set, extensions.partialClone's moved to the front.
// The file's include directives are not followed.
func promisorRemotes(configFile string) ([]string, error) {
	f, err := os.Open(configFile)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", configFile, err)
	}
	defer f.Close()
	cfg := format.New()
	if err := format.NewDecoder(f).Decode(cfg); err != nil {
		return nil, fmt.Errorf("read %s: %w", configFile, err)
	}
	var out []string
	if name, _ := lastValue(cfg.Section("extensions").Options, "partialclone"); name != "" {
		out = append(out, name)
	}
	for _, sub := range cfg.Section("remote").Subsections {
		if v, set := lastValue(sub.Options, "promisor"); set && isTrue(v) && !slices.Contains(out, sub.Name) {
			out = append(out, sub.Name)
		}
	}
	return out, nil
}

// lastValue is a key's value as git reads it: the last one set.
func lastValue(opts format.Options, key string) (v string, set bool) {
	for _, o := range opts {
		if o.IsKey(key) {
			v, set = o.Value, true
		}
	}
	return v, set
}

// isTrue reads a git boolean; a key without a value is true.
func isTrue(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "true", "yes", "on", "1":
		return true
	}
	return false
}
