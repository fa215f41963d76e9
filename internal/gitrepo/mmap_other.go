//go:build !unix

package gitrepo

import "os"

// mapsFiles: mapFile reads the whole file, which is fine for an index but not
// for a pack; packs are then read through go-git.
const mapsFiles = false

// mapFile reads the whole file where mapping is not available.
func mapFile(name string) ([]byte, func() error, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return nil }, nil
}

// dropPages does nothing where files are read rather than mapped.
func dropPages([]byte) {}
