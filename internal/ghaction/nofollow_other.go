//go:build !unix

package ghaction

// noFollow: Windows opens no symbolic link of a file command as one.
const noFollow = 0
