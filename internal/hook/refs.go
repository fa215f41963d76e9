package hook

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// RefUpdate is one ref that `git push` is about to update on the remote: a
// line of the pre-push hook's standard input,
//
//	<local ref> SP <local sha> SP <remote ref> SP <remote sha> LF
//
// for example
//
//	refs/heads/main 67890... refs/heads/main 12345...
//
// (https://git-scm.com/docs/githooks#_pre_push). A remote sha of all zeros
// creates the remote ref; a local sha of all zeros (with the local ref
// "(delete)") deletes it.
type RefUpdate struct {
	// LocalRef is the local ref name, or the revision as typed when it was not
	// a ref name ("HEAD~", a sha), or "(delete)".
	LocalRef string
	// LocalSHA is the object pushed. Empty means "resolve LocalRef": the
	// pre-commit framework's variables name the local branch only when the
	// push reaches a root commit.
	LocalSHA string
	// RemoteRef is the full name of the ref updated on the remote.
	RemoteRef string
	// RemoteSHA is the remote ref's value as the local repository knows it.
	RemoteSHA string
}

// Deletes reports whether the push deletes the remote ref.
func (u RefUpdate) Deletes() bool { return isZeroSHA(u.LocalSHA) }

// Creates reports whether the remote ref does not exist yet.
func (u RefUpdate) Creates() bool { return u.RemoteSHA == "" || isZeroSHA(u.RemoteSHA) }

// IsTag reports whether the remote ref is a tag.
func (u RefUpdate) IsTag() bool { return strings.HasPrefix(u.RemoteRef, "refs/tags/") }

// Name is how messages refer to the update: the remote ref, which is what the
// push changes.
func (u RefUpdate) Name() string { return u.RemoteRef }

// MaxInput bounds the standard input read from git: a push of a hundred
// thousand refs fits; an endless stream does not.
const MaxInput = 32 << 20

// maxLine bounds one ref line: two ref names and two object names.
const maxLine = 64 << 10

// ParseRefLines reads git's pre-push input. Blank lines are ignored; any other
// line must be a ref line. Errors name the line.
func ParseRefLines(r io.Reader) ([]RefUpdate, error) {
	sc := bufio.NewScanner(io.LimitReader(r, MaxInput+1))
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	var out []RefUpdate
	n, read := 0, 0
	for sc.Scan() {
		n++
		read += len(sc.Bytes()) + 1
		if read > MaxInput {
			return nil, fmt.Errorf("standard input is larger than %d MiB", MaxInput>>20)
		}
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		u, err := ParseRefLine(line)
		if err != nil {
			return nil, fmt.Errorf("standard input line %d: %w", n, err)
		}
		out = append(out, u)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("standard input line %d is longer than %d KiB", n+1, maxLine>>10)
		}
		return nil, fmt.Errorf("read standard input: %w", err)
	}
	return out, nil
}

// ParseRefLine reads one ref line. The fields are taken from the right: the
// local ref comes first and is given as typed when it is not a ref name, so it
// is the only field that may hold a space.
func ParseRefLine(line string) (RefUpdate, error) {
	bad := func(why string) (RefUpdate, error) {
		return RefUpdate{}, fmt.Errorf("%s: want \"<local ref> <local sha> <remote ref> <remote sha>\", got %s", why, quoteShort(line))
	}
	rest, remoteSHA := cutLastField(line)
	rest, remoteRef := cutLastField(rest)
	rest, localSHA := cutLastField(rest)
	localRef := strings.TrimSpace(rest)
	switch {
	case localRef == "":
		return bad("fewer than 4 fields")
	case !isSHA(localSHA):
		return bad("the local sha is not an object name")
	case !isSHA(remoteSHA):
		return bad("the remote sha is not an object name")
	case len(localSHA) != len(remoteSHA):
		return bad("the two object names differ in length")
	case !strings.HasPrefix(remoteRef, "refs/") || hasControl(remoteRef):
		return bad("the remote ref is not a full ref name")
	case hasControl(localRef):
		return bad("the local ref holds a control character")
	}
	return RefUpdate{
		LocalRef:  localRef,
		LocalSHA:  strings.ToLower(localSHA),
		RemoteRef: remoteRef,
		RemoteSHA: strings.ToLower(remoteSHA),
	}, nil
}

// cutLastField splits s into what precedes its last blank-separated field and
// that field.
func cutLastField(s string) (rest, field string) {
	s = strings.TrimRight(s, " \t")
	i := strings.LastIndexAny(s, " \t")
	if i < 0 {
		return "", s
	}
	return s[:i], s[i+1:]
}

// isSHA reports whether s is a full SHA-1 or SHA-256 object name.
func isSHA(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// isZeroSHA reports whether s is git's "no object" name: all zeros.
func isZeroSHA(s string) bool {
	return isSHA(s) && strings.Trim(s, "0") == ""
}

func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return true
		}
	}
	return false
}

// quoteShort quotes s for a one-line message, cut to a readable length.
func quoteShort(s string) string {
	const max = 120
	if len(s) > max {
		s = s[:max] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// Variables the pre-commit framework sets for its pre-push stage instead of
// passing git's ref lines (https://pre-commit.com/#pre-push, and
// pre_commit/commands/hook_impl.py): it reads git's input itself and tells
// the hooks about the first ref that pushes commits.
const (
	EnvPreCommitFromRef      = "PRE_COMMIT_FROM_REF"
	EnvPreCommitToRef        = "PRE_COMMIT_TO_REF"
	EnvPreCommitRemoteName   = "PRE_COMMIT_REMOTE_NAME"
	EnvPreCommitRemoteURL    = "PRE_COMMIT_REMOTE_URL"
	EnvPreCommitLocalBranch  = "PRE_COMMIT_LOCAL_BRANCH"
	EnvPreCommitRemoteBranch = "PRE_COMMIT_REMOTE_BRANCH"
)

// PreCommitPush is the push the pre-commit framework describes in its
// variables.
type PreCommitPush struct {
	Remote, URL string
	Update      RefUpdate
}

// FromPreCommitEnv rebuilds the pushed ref from the pre-commit framework's
// variables. ok is false when they are not set. With FROM and TO set, the
// range is FROM..TO (FROM is the remote's sha, or the parent of the first
// commit the remote lacks); with only the local branch set (a push that
// reaches a root commit), the branch is treated as a new ref.
func FromPreCommitEnv(getenv func(string) string) (p PreCommitPush, ok bool, err error) {
	from, to := getenv(EnvPreCommitFromRef), getenv(EnvPreCommitToRef)
	local, remoteRef := getenv(EnvPreCommitLocalBranch), getenv(EnvPreCommitRemoteBranch)
	p.Remote, p.URL = getenv(EnvPreCommitRemoteName), getenv(EnvPreCommitRemoteURL)
	if to == "" && local == "" {
		return PreCommitPush{}, false, nil
	}
	if hasControl(from + to + local + remoteRef) {
		return PreCommitPush{}, false, errors.New("the PRE_COMMIT_* variables hold a control character")
	}
	zero := strings.Repeat("0", 40)
	u := RefUpdate{LocalRef: local, RemoteRef: remoteRef, RemoteSHA: zero}
	if to != "" {
		if !isSHA(to) {
			return PreCommitPush{}, false, fmt.Errorf("%s=%s is not an object name", EnvPreCommitToRef, quoteShort(to))
		}
		u.LocalSHA = strings.ToLower(to)
		if u.LocalRef == "" {
			u.LocalRef = u.LocalSHA
		}
		if from != "" {
			if !isSHA(from) {
				return PreCommitPush{}, false, fmt.Errorf("%s=%s is not an object name", EnvPreCommitFromRef, quoteShort(from))
			}
			u.RemoteSHA = strings.ToLower(from)
		}
	}
	if u.RemoteRef == "" {
		u.RemoteRef = u.LocalRef
	}
	p.Update = u
	return p, true, nil
}
