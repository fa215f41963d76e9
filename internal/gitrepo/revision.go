package gitrepo

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// UnknownRevisionError says a revision names no commit. Reason, when set, says
// why (an ambiguous short SHA, a missing parent); Err is the cause, which may
// be ErrAmbiguous or ErrShallow.
type UnknownRevisionError struct {
	Rev    string
	Reason string
	Err    error
}

// Error quotes the revision, as git does, and gives the reason if known.
func (e *UnknownRevisionError) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("unknown revision %q", e.Rev)
	}
	return fmt.Sprintf("unknown revision %q: %s", e.Rev, e.Reason)
}

// Unwrap returns the cause.
func (e *UnknownRevisionError) Unwrap() error { return e.Err }

const (
	// minShortSHA is the shortest abbreviation git accepts.
	minShortSHA = 4
	// hexSize is the length of a full SHA-1 in hex.
	hexSize = 40
)

// Resolve turns a revision into a commit hash. It accepts what a user types
// for a range end: a full or unique short SHA (at least 4 hex digits), HEAD
// or @, a branch, a remote branch (origin/main), a tag (an annotated tag is
// peeled to its commit), a full refs/... name, followed by any number of ~n,
// ~, ^n, ^, ^{commit} and ^{} suffixes. Names are tried in git's order
// (NAME, refs/NAME, refs/tags/NAME, refs/heads/NAME, refs/remotes/NAME,
// refs/remotes/NAME/HEAD) before a short SHA. Failures are
// *UnknownRevisionError.
func (r *Repo) Resolve(rev string) (plumbing.Hash, error) {
	name, suffix := splitRevision(rev)
	switch name {
	case "":
		return plumbing.ZeroHash, &UnknownRevisionError{Rev: rev}
	case "@":
		name = "HEAD"
	}
	h, err := r.resolveName(rev, name)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return r.applySuffix(rev, h, suffix)
}

// splitRevision splits "main~2^2" into "main" and "~2^2". Ref names cannot
// contain ~ or ^, so the first one starts the suffix.
func splitRevision(rev string) (name, suffix string) {
	if i := strings.IndexAny(rev, "~^"); i >= 0 {
		return rev[:i], rev[i:]
	}
	return rev, ""
}

func (r *Repo) resolveName(rev, name string) (plumbing.Hash, error) {
	unknown := func(reason string, err error) error {
		return &UnknownRevisionError{Rev: rev, Reason: reason, Err: err}
	}
	if len(name) == hexSize && isHex(name) {
		h := plumbing.NewHash(name)
		c, err := r.peelToCommit(h)
		if err != nil {
			return plumbing.ZeroHash, r.missing(rev, err)
		}
		return c, nil
	}
	if validRefName(name) && r.mayNameRef(name) {
		for _, full := range dwimRefs(name) {
			ref, err := r.resolveRef(plumbing.ReferenceName(full))
			if errors.Is(err, plumbing.ErrReferenceNotFound) || (err == nil && ref == nil) {
				continue
			}
			if err != nil {
				return plumbing.ZeroHash, unknown(fmt.Sprintf("read %s: %v", full, err), err)
			}
			c, err := r.peelToCommit(ref.Hash())
			if err != nil {
				return plumbing.ZeroHash, unknown(fmt.Sprintf("%s: %v", full, err), err)
			}
			return c, nil
		}
	}
	if len(name) >= minShortSHA && len(name) < hexSize && isHex(name) {
		return r.resolveShort(rev, strings.ToLower(name))
	}
	return plumbing.ZeroHash, unknown("", nil)
}

// mayNameRef reports whether a name that could be a short SHA may also be
// a ref's (see dwimRefs), which git tries first: only when a loose ref file
// of one of dwimRefs' names exists or the packed-refs file holds one.
// go-git reads the whole packed-refs file for each name it looks up: six
// times for a short SHA that names no ref, 70-130 ms on prometheus's
// 15,000 refs, five times the analysis of a commit. Other names, and any
// doubt (a file that cannot be read), answer true.
func (r *Repo) mayNameRef(name string) bool {
	if len(name) < minShortSHA || len(name) >= hexSize || !isHex(name) {
		return true
	}
	fs := r.st.Filesystem()
	for _, full := range dwimRefs(name) {
		if _, err := fs.Lstat(full); !errors.Is(err, os.ErrNotExist) {
			return true
		}
	}
	f, err := fs.Open("packed-refs")
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	if err != nil {
		return true
	}
	defer f.Close()
	packed, err := io.ReadAll(f)
	if err != nil {
		return true
	}
	for _, full := range dwimRefs(name) {
		if bytes.Contains(packed, []byte(" "+full)) {
			return true
		}
	}
	return false
}

// missing explains a full SHA that is not a readable commit.
func (r *Repo) missing(rev string, err error) error {
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		if r.IsShallow() {
			return &UnknownRevisionError{Rev: rev, Reason: "not in this shallow clone: " + ErrShallow.Error(), Err: ErrShallow}
		}
		return &UnknownRevisionError{Rev: rev, Err: err}
	}
	return &UnknownRevisionError{Rev: rev, Reason: err.Error(), Err: err}
}

// resolveShort expands a short SHA to the one commit it abbreviates. Objects
// that are not commits (or tags of commits) do not make it ambiguous, as git
// disambiguates a range end to commits.
func (r *Repo) resolveShort(rev, prefix string) (plumbing.Hash, error) {
	raw, err := hex.DecodeString(prefix[:len(prefix)&^1])
	if err != nil {
		return plumbing.ZeroHash, &UnknownRevisionError{Rev: rev, Err: err}
	}
	r.mu.Lock()
	hashes, err := r.objs.HashesWithPrefix(raw)
	if err == nil && len(hashes) == 0 && r.packsChanged() {
		hashes, err = r.objs.HashesWithPrefix(raw)
	}
	r.mu.Unlock()
	if err != nil {
		return plumbing.ZeroHash, &UnknownRevisionError{Rev: rev, Reason: err.Error(), Err: err}
	}
	var found []plumbing.Hash
	seen := map[plumbing.Hash]bool{}
	for _, h := range hashes {
		if !strings.HasPrefix(h.String(), prefix) {
			continue
		}
		c, err := r.peelToCommit(h)
		if err != nil || seen[c] {
			continue
		}
		seen[c] = true
		found = append(found, h)
	}
	switch len(found) {
	case 0:
		if r.IsShallow() {
			return plumbing.ZeroHash, &UnknownRevisionError{Rev: rev, Reason: "not in this shallow clone: " + ErrShallow.Error(), Err: ErrShallow}
		}
		return plumbing.ZeroHash, &UnknownRevisionError{Rev: rev}
	case 1:
		return r.peelToCommit(found[0])
	}
	names := make([]string, 0, len(found))
	for _, h := range found {
		names = append(names, short(h))
	}
	return plumbing.ZeroHash, &UnknownRevisionError{
		Rev:    rev,
		Reason: fmt.Sprintf("ambiguous short SHA, matches %s", strings.Join(names, ", ")),
		Err:    ErrAmbiguous,
	}
}

// dwimRefs lists the full names git tries for a short name, in git's order.
// A top-level name is only tried when it looks like HEAD, ORIG_HEAD and
// friends, so that files such as "config" are never read as refs.
func dwimRefs(name string) []string {
	var out []string
	if strings.HasPrefix(name, "refs/") || isPseudoRef(name) {
		out = append(out, name)
	}
	return append(out,
		"refs/"+name,
		"refs/tags/"+name,
		"refs/heads/"+name,
		"refs/remotes/"+name,
		"refs/remotes/"+name+"/HEAD",
	)
}

func isPseudoRef(name string) bool {
	if !strings.HasSuffix(name, "HEAD") {
		return false
	}
	for _, c := range name {
		if (c < 'A' || c > 'Z') && c != '_' {
			return false
		}
	}
	return true
}

// validRefName applies git's check-ref-format rules that matter for safety:
// a name read as a file path must not escape the refs directory.
func validRefName(name string) bool {
	if name == "" || strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".") ||
		strings.Contains(name, "..") || strings.Contains(name, "@{") || strings.Contains(name, "//") {
		return false
	}
	for _, c := range []byte(name) {
		if c < 0x20 || c == 0x7f || strings.IndexByte(" ~^:?*[\\", c) >= 0 {
			return false
		}
	}
	for _, part := range strings.Split(name, "/") {
		if part == "" || part[0] == '.' || strings.HasSuffix(part, ".lock") {
			return false
		}
	}
	return true
}

// applySuffix walks the ~n and ^n steps of a revision from h.
func (r *Repo) applySuffix(rev string, h plumbing.Hash, suffix string) (plumbing.Hash, error) {
	bad := func(reason string) error { return &UnknownRevisionError{Rev: rev, Reason: reason} }
	for suffix != "" {
		op := suffix[0]
		suffix = suffix[1:]
		if op == '^' && strings.HasPrefix(suffix, "{") {
			end := strings.IndexByte(suffix, '}')
			if end < 0 {
				return plumbing.ZeroHash, bad("unterminated ^{")
			}
			if kind := suffix[1:end]; kind != "" && kind != "commit" {
				return plumbing.ZeroHash, bad(fmt.Sprintf("unsupported peel ^{%s}", kind))
			}
			suffix = suffix[end+1:]
			continue // h is already a commit
		}
		digits := 0
		for digits < len(suffix) && suffix[digits] >= '0' && suffix[digits] <= '9' {
			digits++
		}
		n := 1
		if digits > 0 {
			v, err := strconv.Atoi(suffix[:digits])
			if err != nil || v > 1_000_000 {
				return plumbing.ZeroHash, bad(fmt.Sprintf("bad number %q", suffix[:digits]))
			}
			n = v
		}
		if digits == 0 && suffix != "" && suffix[0] != '~' && suffix[0] != '^' {
			return plumbing.ZeroHash, bad(fmt.Sprintf("bad suffix %q", suffix))
		}
		suffix = suffix[digits:]
		var err error
		if op == '^' {
			h, err = r.nthParent(rev, h, n)
		} else {
			for i := 0; i < n && err == nil; i++ {
				h, err = r.nthParent(rev, h, 1)
			}
		}
		if err != nil {
			return plumbing.ZeroHash, err
		}
	}
	return h, nil
}

// nthParent returns the n-th parent (1-based); n == 0 is the commit itself.
func (r *Repo) nthParent(rev string, h plumbing.Hash, n int) (plumbing.Hash, error) {
	if n == 0 {
		return h, nil
	}
	c, err := r.loadCommit(h)
	if err != nil {
		return plumbing.ZeroHash, &UnknownRevisionError{Rev: rev, Reason: err.Error(), Err: err}
	}
	if r.shallow[h] {
		return plumbing.ZeroHash, &UnknownRevisionError{Rev: rev,
			Reason: fmt.Sprintf("parents of %s are not in this shallow clone: %s", short(h), ErrShallow), Err: ErrShallow}
	}
	if n > len(c.Parents) {
		return plumbing.ZeroHash, &UnknownRevisionError{Rev: rev,
			Reason: fmt.Sprintf("commit %s has %d parent(s), no parent %d", short(h), len(c.Parents), n)}
	}
	return c.Parents[n-1], nil
}

func isHex(s string) bool {
	for _, c := range []byte(s) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return s != ""
}

// DefaultBranch names the branch a range defaults to: the target of
// refs/remotes/origin/HEAD, else the first of origin/main, origin/master,
// main and master that exists. The name is short ("origin/main", "main") and
// Resolve accepts it.
func (r *Repo) DefaultBranch() (string, error) {
	r.mu.Lock()
	ref, err := r.st.Reference(plumbing.NewRemoteHEADReferenceName("origin"))
	r.mu.Unlock()
	if err == nil && ref.Type() == plumbing.SymbolicReference {
		if _, err := r.resolveRef(ref.Target()); err == nil {
			return shortRef(ref.Target()), nil
		}
	}
	for _, name := range []plumbing.ReferenceName{
		plumbing.NewRemoteReferenceName("origin", "main"),
		plumbing.NewRemoteReferenceName("origin", "master"),
		plumbing.NewBranchReferenceName("main"),
		plumbing.NewBranchReferenceName("master"),
	} {
		if _, err := r.resolveRef(name); err == nil {
			return shortRef(name), nil
		}
	}
	return "", errors.New("no default branch: none of origin/HEAD, origin/main, origin/master, main, master exists")
}

// resolveRef follows a reference, symbolic ones to their target.
func (r *Repo) resolveRef(name plumbing.ReferenceName) (*plumbing.Reference, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return storer.ResolveReference(r.st, name)
}

// shortRef drops refs/heads/ or refs/remotes/ from a branch name.
func shortRef(n plumbing.ReferenceName) string {
	s := string(n)
	for _, p := range []string{"refs/heads/", "refs/remotes/"} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return rest
		}
	}
	return s
}
