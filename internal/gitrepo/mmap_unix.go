//go:build unix

package gitrepo

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// mapsFiles: mapFile maps rather than reads, so pack files can be mapped.
const mapsFiles = true

// maxReadInstead is the largest file mapFile reads when it cannot map it.
const maxReadInstead = 64 << 20

// mapFile maps a file read-only. Pack indexes are read at a few dozen places
// per lookup, so mapping them costs a page fault per page touched instead of
// a copy of the whole file. The returned func unmaps it.
func mapFile(name string) ([]byte, func() error, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := fi.Size()
	if size == 0 {
		return nil, func() error { return nil }, nil
	}
	if size != int64(int(size)) {
		return nil, nil, fmt.Errorf("%s: too large to map (%d bytes)", name, size)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		// A file system that cannot map (some network mounts), or no
		// address space for it: read a small file, and let the caller
		// read a large one its own way.
		if size > maxReadInstead {
			return nil, nil, fmt.Errorf("map %s: %w", name, err)
		}
		b, err = os.ReadFile(name)
		if err != nil {
			return nil, nil, err
		}
		return b, func() error { return nil }, nil
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}

// dropPages tells the kernel that the process no longer needs the pages of
// a read-only file mapping: they leave its resident set (the page cache
// keeps them, so a later read costs a minor fault). A long range reads
// blobs from all over a large pack; without this every page it touched
// stays counted in its RSS.
func dropPages(b []byte) {
	if len(b) > 0 {
		_ = unix.Madvise(b, unix.MADV_DONTNEED)
	}
}
