package analyze

import "github.com/ralph-gate/ralph-gate/internal/analyze/ci"

// The CI rules live in package ci; what they read of a change is handed
// over here.

// ciFile is a changed file as package ci reads it.
func ciFile(fc *FileChange) *ci.File {
	return &ci.File{OldPath: fc.OldPath, NewPath: fc.NewPath, Old: fc.Old, New: fc.New, OldKey: fc.OldKey, NewKey: fc.NewKey, Skip: fc.Skip}
}

// ciFiles are the pairs' files as package ci reads them, in the pairs'
// order, with what the test extractors said of each side.
func ciFiles(pairs []*pair) []*ci.File {
	out := make([]*ci.File, len(pairs))
	for i, pr := range pairs {
		f := ciFile(pr.fc)
		f.OldTest = pr.old != nil && pr.old.isTest
		f.NewTest = pr.new != nil && pr.new.isTest
		out[i] = f
	}
	return out
}

// baseRuns is the CI of a change's base, read on first use (see
// Change.BaseCI).
func baseRuns(load func() []Source) *ci.Base {
	if load == nil {
		return ci.BaseRuns(nil)
	}
	return ci.BaseRuns(func() []ci.Source {
		srcs := load()
		out := make([]ci.Source, len(srcs))
		for i, s := range srcs {
			out[i] = ci.Source{Path: s.Path, Key: s.Key, Data: s.Data}
		}
		return out
	})
}
