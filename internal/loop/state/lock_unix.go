//go:build unix

package state

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// tryLock takes a POSIX write lock on the whole file (see Lock for why not
// flock).
func tryLock(f *os.File) (bool, error) {
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: io.SeekStart}
	err := syscall.FcntlFlock(f.Fd(), syscall.F_SETLK, &lk)
	if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EACCES) {
		return false, nil
	}
	return err == nil, err
}

func unlock(f *os.File) error {
	lk := syscall.Flock_t{Type: syscall.F_UNLCK, Whence: io.SeekStart}
	return syscall.FcntlFlock(f.Fd(), syscall.F_SETLK, &lk)
}

// Alive reports whether a process with this pid exists.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
