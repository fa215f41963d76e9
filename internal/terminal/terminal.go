package terminal

import "syscall"

// Is reports whether v, a command's standard input, output or error, is an
// open file on a terminal. Anything else (a pipe, a regular file, /dev/null,
// a socket, a buffer, nil) is not.
//
// It reaches the descriptor through SyscallConn, not (*os.File).Fd, which
// would switch the file to blocking mode.
func Is(v any) bool {
	c, ok := v.(syscall.Conn)
	if !ok {
		return false
	}
	raw, err := c.SyscallConn()
	if err != nil {
		return false
	}
	is := false
	if err := raw.Control(func(fd uintptr) { is = isTerminal(fd) }); err != nil {
		return false
	}
	return is
}
