//go:build unix

package collect

import "syscall"

// noFollow and nonBlock: an open fails on a symbolic link, and does not
// hang on a FIFO (which is then refused as not a regular file).
const (
	noFollow = syscall.O_NOFOLLOW
	nonBlock = syscall.O_NONBLOCK
)
