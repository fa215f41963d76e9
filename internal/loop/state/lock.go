package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/errkind"
)

// ErrLocked says another ralph-gate holds a loop's lock.
var ErrLocked = errors.New("locked")

// LockedError names who holds a loop's lock.
type LockedError struct {
	Loop   string
	Holder lockInfo
}

// Kind: another process holds the loop; the user waits or retries.
func (e *LockedError) Kind() errkind.Kind { return errkind.Input }

func (e *LockedError) Error() string {
	who := "another ralph-gate"
	if e.Holder.PID != 0 {
		who = fmt.Sprintf("ralph-gate %s (pid %d, since %s)", e.Holder.Op, e.Holder.PID, e.Holder.Since.Format(time.RFC3339))
	}
	return fmt.Sprintf("loop %s is locked by %s; wait for it to finish or pass --wait DURATION", e.Loop, who)
}

func (e *LockedError) Unwrap() error { return ErrLocked }

type lockInfo struct {
	PID   int       `json:"pid"`
	Op    string    `json:"op"`
	Since time.Time `json:"since"`
}

// Lock is an exclusive lock on one loop: a POSIX record lock (fcntl) on the
// loop's .lock file. The operating system releases it when the process dies,
// so a kill -9 never leaves a loop locked.
//
// Not flock(2): a flock belongs to the open file, which every child process
// shares from fork until its exec closes it. A ralph-gate killed while it was
// starting git left the loop locked by that half-started child for as long
// as the child took to be scheduled, and the next record failed with "locked
// by pid N" of the dead process (about one kill in nine on this machine,
// TestLockNotInheritedByChildren). A record lock belongs to the process and is
// never inherited. Record locks do not exclude the process's own goroutines
// and are dropped when the process closes any descriptor of the file, so the
// process also keeps its own table of the lock files it holds and never opens
// one of those again.
type Lock struct {
	f   *os.File
	key string
}

// held is this process's lock files, by absolute path.
var held = struct {
	sync.Mutex
	m map[string]lockInfo
}{m: map[string]lockInfo{}}

// lockFile tries once to lock the file at path. When it is held, info names
// the holder as far as it is known.
func lockFile(path string, info lockInfo) (l *Lock, holder lockInfo, err error) {
	key, err := filepath.Abs(path)
	if err != nil {
		return nil, lockInfo{}, err
	}
	held.Lock()
	defer held.Unlock()
	if h, ok := held.m[key]; ok {
		return nil, h, nil
	}
	f, err := os.OpenFile(key, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, lockInfo{}, err
	}
	ok, err := tryLock(f)
	if err != nil || !ok {
		// Nothing in this process holds the file, so closing it drops no
		// lock of ours.
		if err == nil {
			if data, rerr := io.ReadAll(io.NewSectionReader(f, 0, 4096)); rerr == nil {
				_ = json.Unmarshal(data, &holder)
			}
		}
		f.Close()
		return nil, holder, err
	}
	held.m[key] = info
	return &Lock{f: f, key: key}, lockInfo{}, nil
}

// Lock takes the loop's exclusive lock, waiting up to wait for a holder to
// finish (0: fail at once).
func (s *Store) Lock(id, op string, wait time.Duration) (*Lock, error) {
	if err := s.checkLinks(id); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(s.LoopDir(id), 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(s.LoopDir(id), ".lock")
	info := lockInfo{PID: os.Getpid(), Op: op, Since: time.Now().UTC()}
	deadline := time.Now().Add(wait)
	for {
		l, holder, err := lockFile(path, info)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if l != nil {
			data, _ := json.Marshal(info)
			_ = l.f.Truncate(0)
			_, _ = l.f.WriteAt(data, 0)
			return l, nil
		}
		if !time.Now().Before(deadline) {
			return nil, &LockedError{Loop: id, Holder: holder}
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Unlock releases the lock.
func (l *Lock) Unlock() {
	if l == nil || l.f == nil {
		return
	}
	held.Lock()
	defer held.Unlock()
	_ = l.f.Truncate(0)
	_ = unlock(l.f)
	_ = l.f.Close()
	delete(held.m, l.key)
	l.f = nil
}
