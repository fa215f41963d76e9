package guard

import (
	"bytes"
	"errors"
	"io"
	"os"
)

// MaxFileSize bounds the file read to build a proposed version; a larger file
// is not analyzed (the analyzer caps blobs the same way).
const MaxFileSize = 16 << 20

// Proposal is a file before and after a Write, Edit or MultiEdit.
type Proposal struct {
	// Existed says whether the file existed before the call.
	Existed bool
	Old     []byte
	New     []byte
}

// errToolFails says the tool call would fail by itself (an old_string that is
// not in the file, or in it more than once without replace_all): it changes
// nothing, so there is nothing to judge.
var errToolFails = errors.New("the tool call would fail and change nothing")

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

// ApplyEdits applies Edit replacements in order, as Claude Code's Edit and
// MultiEdit do: each old_string must occur exactly once unless replace_all is
// set, must differ from new_string, and an empty old_string creates a file
// that does not exist yet. Any edit that fails fails them all.
func ApplyEdits(cur []byte, existed bool, edits []EditInput) ([]byte, error) {
	out := cur
	for i, e := range edits {
		old, repl := []byte(*e.OldString), []byte(*e.NewString)
		if bytes.Equal(old, repl) {
			return nil, errToolFails
		}
		if len(old) == 0 {
			if i == 0 && (!existed || len(out) == 0) {
				out = append([]byte(nil), repl...)
				existed = true
				continue
			}
			return nil, errToolFails
		}
		n := bytes.Count(out, old)
		if n == 0 || (n > 1 && !e.ReplaceAll) {
			return nil, errToolFails
		}
		out = bytes.ReplaceAll(out, old, repl)
	}
	return out, nil
}
