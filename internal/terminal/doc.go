// Package terminal answers one question for the whole program: is this
// stream a terminal, that is, is a person typing at it or reading it?
//
// A human decision (approve, reject, abort, record --interactive) is the
// user's only at a terminal; elsewhere it needs a name. Hook input (git's ref
// lines, Claude Code's JSON) never comes from a terminal. Colour and progress
// lines go only to a terminal. All of these ask Is.
//
// A character device is not a terminal: /dev/null is one, and a script or an
// agent that runs a command with </dev/null is not a person. Is asks the
// terminal driver itself (the termios ioctl on Unix, the console mode on
// Windows), as golang.org/x/term does, so only a real terminal or a
// pseudo-terminal answers yes.
package terminal
