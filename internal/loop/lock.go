package loop

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// ErrLocked says another ralph-gate holds a loop's lock.
var ErrLocked = errors.New("locked")

// LockedError names who holds a loop's lock.
type LockedError struct {
	Loop   string
	Holder lockInfo
}

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

// Lock is an exclusive lock on one loop, held by an open file: the operating
// system releases it when the process dies, so a kill -9 never leaves a loop
// locked.
type Lock struct{ f *os.File }

// Lock takes the loop's exclusive lock, waiting up to wait for a holder to
// finish (0: fail at once).
func (s *Store) Lock(id, op string, wait time.Duration) (*Lock, error) {
	if err := os.MkdirAll(s.LoopDir(id), 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(s.LoopDir(id), ".lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if ok {
			break
		}
		if !time.Now().Before(deadline) {
			var info lockInfo
			if data, err := os.ReadFile(path); err == nil {
				_ = json.Unmarshal(data, &info)
			}
			f.Close()
			return nil, &LockedError{Loop: id, Holder: info}
		}
		time.Sleep(50 * time.Millisecond)
	}
	info, _ := json.Marshal(lockInfo{PID: os.Getpid(), Op: op, Since: time.Now().UTC()})
	_ = f.Truncate(0)
	_, _ = f.WriteAt(info, 0)
	return &Lock{f: f}, nil
}

// Unlock releases the lock.
func (l *Lock) Unlock() {
	if l == nil || l.f == nil {
		return
	}
	_ = l.f.Truncate(0)
	_ = unlock(l.f)
	_ = l.f.Close()
	l.f = nil
}
