// Package ptytest opens pseudo-terminals for tests: a command whose standard
// input is the terminal end behaves as it does for a person typing. Tests
// only; Linux only (it opens /dev/ptmx with the Linux ioctls).
package ptytest
