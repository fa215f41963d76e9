package guard

import (
	"errors"
	"io"
	"os"
)

// MaxFileSize bounds the file read to build a proposed version; a larger file
// is not analyzed (the analyzer caps blobs the same way).
const MaxFileSize = 16 << 20

// errTooLarge says the file is too large to analyze.
var errTooLarge = errors.New("file too large to analyze")

// errNotRegular says the path is a directory or a device: a Write or Edit of
// it fails by itself.
var errNotRegular = errors.New("not a regular file")

// readCurrent reads the file a tool call changes, as it is now.
func readCurrent(path string) ([]byte, bool, error) {
	// Stat before opening: opening a FIFO would wait for a writer.
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, true, errNotRegular
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, false, err
	}
	if len(data) > MaxFileSize {
		return nil, true, errTooLarge
	}
	return data, true, nil
}
