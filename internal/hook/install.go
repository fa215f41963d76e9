package hook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gitcmd"
)

// ErrForeignHook: the pre-push hook in place is not one Install wrote.
var ErrForeignHook = errors.New("not ralph-gate's hook")

// ErrLeftover: a file Install would need to write already exists, left from an
// earlier install; overwriting it could lose a user's hook.
var ErrLeftover = errors.New("left from an earlier install")

// HooksDir asks git where it runs hooks for the repository containing dir:
// .git/hooks, the common directory's hooks for a linked worktree, or
// core.hooksPath when it is set (relative values are resolved as git
// resolves them). It runs `git rev-parse --git-path hooks`, so it agrees with
// the git that will run the hook.
func HooksDir(ctx context.Context, dir string) (string, error) {
	// Plain: the answer must be the one the git that runs the hook gives,
	// core.hooksPath included.
	out, err := gitcmd.Run(ctx, dir, gitcmd.Options{Plain: true}, "rev-parse", "--git-path", "hooks")
	if err != nil {
		var ge *gitcmd.Error
		if errors.As(err, &ge) && ge.ExitCode() >= 0 {
			return "", fmt.Errorf("%s: %s", dir, strings.TrimPrefix(ge.FirstLine(), "fatal: "))
		}
		return "", fmt.Errorf("find the hooks directory of %s: run git: %w", dir, err)
	}
	p := strings.TrimSpace(string(out))
	if p == "" {
		return "", fmt.Errorf("find the hooks directory of %s: git printed nothing", dir)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("find the hooks directory of %s: %w", dir, err)
	}
	return abs, nil
}

// InstallAction says what Install did.
type InstallAction int

// What Install can do.
const (
	// Installed: there was no ralph-gate hook; there is one now.
	Installed InstallAction = iota
	// Updated: a ralph-gate hook of another content (another binary, an
	// older version) was rewritten.
	Updated
	// Unchanged: the same hook was already installed.
	Unchanged
)

// InstallResult reports what Install did.
type InstallResult struct {
	Action InstallAction
	// Path is the hook's path.
	Path string
	// Chained is set when a hook that was in place was moved there and will
	// run first; Backup when --force moved it there and it will not run.
	// Both name files that are kept from an earlier install too.
	Chained, Backup string
}

// Install writes the pre-push hook script (Script(binary)) into hooksDir,
// creating the directory if needed. A hook already in place that Install did
// not write is kept: moved to ChainedName and run first by the new script,
// or, with force, moved to BackupName and not run. Installing again with the
// same binary changes nothing; with another binary it rewrites the script and
// keeps the chained hook.
func Install(hooksDir, binary string, force bool) (InstallResult, error) {
	path := filepath.Join(hooksDir, HookName)
	res := InstallResult{Path: path}
	chained, backup := filepath.Join(hooksDir, ChainedName), filepath.Join(hooksDir, BackupName)
	script := []byte(Script(binary))
	existing, err := os.ReadFile(path)
	present := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		if _, lerr := os.Lstat(path); lerr == nil {
			// A dangling symbolic link, or a hook we cannot read: a user's
			// hook all the same.
			present, existing = true, nil
		} else {
			return res, fmt.Errorf("read %s: %w", path, errors.Unwrap(err))
		}
	}
	res.Chained, res.Backup = existingFile(chained), existingFile(backup)
	switch {
	case present && IsManaged(existing):
		if bytes.Equal(existing, script) {
			res.Action = Unchanged
			return res, nil
		}
		res.Action = Updated
	case present:
		for _, p := range []string{chained, backup} {
			if existingFile(p) != "" {
				return res, fmt.Errorf("%s is in place and %s exists too: %w; move one of them away and install again", path, p, ErrLeftover)
			}
		}
		keep := chained
		if force {
			keep = backup
		}
		if err := os.Rename(path, keep); err != nil {
			return res, fmt.Errorf("keep the existing hook %s: %w", path, errors.Unwrap(err))
		}
		if force {
			res.Backup = keep
		} else {
			res.Chained = keep
		}
	default:
		if res.Chained != "" || res.Backup != "" {
			return res, fmt.Errorf("%s exists but no pre-push hook does: %w; run 'ralph-gate hook uninstall' to put it back, or remove it", firstNonEmpty(res.Chained, res.Backup), ErrLeftover)
		}
		if err := os.MkdirAll(hooksDir, 0o755); err != nil {
			return res, fmt.Errorf("create the hooks directory %s: %w", hooksDir, errors.Unwrap(err))
		}
	}
	if err := writeExecutable(path, script); err != nil {
		return res, err
	}
	return res, nil
}

// UninstallResult reports what Uninstall did.
type UninstallResult struct {
	// Removed is set when the ralph-gate hook was removed.
	Removed bool
	// Path is the hook's path.
	Path string
	// Restored names the file (chained or backup) moved back to Path.
	Restored string
}

// Uninstall removes the hook Install wrote and moves the hook it replaced
// (chained, else backed up) back in place, unchanged. A pre-push hook that
// Install did not write is left alone: the error wraps ErrForeignHook.
// Uninstalling when nothing is installed changes nothing.
func Uninstall(hooksDir string) (UninstallResult, error) {
	path := filepath.Join(hooksDir, HookName)
	res := UninstallResult{Path: path}
	content, err := os.ReadFile(path)
	switch {
	case err == nil && !IsManaged(content):
		return res, fmt.Errorf("%s: %w, leaving it alone", path, ErrForeignHook)
	case err == nil:
		if err := os.Remove(path); err != nil {
			return res, fmt.Errorf("remove %s: %w", path, errors.Unwrap(err))
		}
		res.Removed = true
	case errors.Is(err, fs.ErrNotExist):
		if _, lerr := os.Lstat(path); lerr == nil {
			return res, fmt.Errorf("%s: %w (a dangling link), leaving it alone", path, ErrForeignHook)
		}
	default:
		return res, fmt.Errorf("read %s: %w", path, errors.Unwrap(err))
	}
	for _, name := range []string{ChainedName, BackupName} {
		saved := filepath.Join(hooksDir, name)
		if existingFile(saved) == "" {
			continue
		}
		if err := os.Rename(saved, path); err != nil {
			return res, fmt.Errorf("put back %s: %w", saved, errors.Unwrap(err))
		}
		res.Restored = saved
		break
	}
	return res, nil
}

// writeExecutable replaces path with content, mode 0755, through a temporary
// file in the same directory so git never runs half a script.
func writeExecutable(path string, content []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+HookName+".ralph-gate-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, errors.Unwrap(err))
	}
	tmp := f.Name()
	_, werr := f.Write(content)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, 0o755)
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, werr)
	}
	return nil
}

// existingFile returns p when something (a file, a link) is there, else "".
func existingFile(p string) string {
	if _, err := os.Lstat(p); err == nil {
		return p
	}
	return ""
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
