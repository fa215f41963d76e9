package ci

import "sync"

// File is one changed file as the CI rules read it (analyze hands its
// FileChange over): its paths and contents on each side.
type File struct {
	// OldPath is "" for an added file, NewPath "" for a deleted one.
	OldPath, NewPath string
	// Old and New are the file's contents on each side (nil when not read).
	Old, New []byte
	// OldKey and NewKey identify the contents (git blob hashes), so that a
	// version read once is not read again; "" disables caching.
	OldKey, NewKey string
	// Skip, when set, says why the contents are not available.
	Skip string
	// OldTest and NewTest say that a side is a test file, as the test
	// extractors read it.
	OldTest, NewTest bool
}

// Path is the file's path: its new one, or the old one of a deleted file.
func (f *File) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// Source is a file on one side of a change, read on demand.
type Source struct {
	Path string
	Key  string
	Data []byte
}

// Checker applies the CI rules. It keeps what it read of each file version
// (by path and blob), so that one Checker serves a whole range: the new side
// of one commit is the old side of the next.
type Checker struct {
	// jsSelection reports whether both sides of a JavaScript runner
	// configuration read as include and exclude lists (package analyze
	// reads them, for the runner-config rules).
	jsSelection func(old, new []byte) bool

	mu sync.Mutex
	// ciCache holds what CI files run, by path and blob (see readCI).
	ciCache map[string]*ciFacts
	// cmdCount holds the test command lines of a file version, by blob.
	cmdCount map[string]int
}

// New returns a Checker; jsSelection reports whether both sides of a
// JavaScript runner configuration read as its include and exclude lists
// (an exclusion there is judged with the lists, not by line).
func New(jsSelection func(old, new []byte) bool) *Checker {
	return &Checker{jsSelection: jsSelection, ciCache: map[string]*ciFacts{}, cmdCount: map[string]int{}}
}
