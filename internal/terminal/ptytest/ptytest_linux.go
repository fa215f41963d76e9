//go:build linux

package ptytest

import (
	"fmt"
	"os"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// Open opens a pseudo-terminal and returns its two ends: controller, where a
// test types (writes) and reads what the program shows, and tty, the
// terminal the program is given. Both are closed when the test ends. A
// machine without pseudo-terminals skips the test.
func Open(t testing.TB) (controller, tty *os.File) {
	t.Helper()
	controller, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal on this machine: %v", err)
	}
	t.Cleanup(func() { controller.Close() })
	tty, err = openPeer(controller)
	if err != nil {
		t.Fatalf("open the terminal end of %s: %v", controller.Name(), err)
	}
	t.Cleanup(func() { tty.Close() })
	return controller, tty
}

// openPeer unlocks the controller's terminal and opens it by its number.
func openPeer(controller *os.File) (*os.File, error) {
	conn, err := controller.SyscallConn()
	if err != nil {
		return nil, err
	}
	var n uint32
	var ioctlErr error
	if err := conn.Control(func(fd uintptr) {
		if ioctlErr = unix.IoctlSetPointerInt(int(fd), unix.TIOCSPTLCK, 0); ioctlErr != nil {
			return
		}
		n, ioctlErr = unix.IoctlGetUint32(int(fd), unix.TIOCGPTN)
	}); err != nil {
		return nil, err
	}
	if ioctlErr != nil {
		return nil, ioctlErr
	}
	return os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
}
