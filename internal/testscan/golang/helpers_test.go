package golang

import (
	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

// extract runs the extractor and fails the test on an error.
var extract = scantest.ExtractWith(New())

// testRow is the identity of a test case without its body facts.
type testRow struct {
	ID      string
	Line    int
	EndLine int
	Skip    *testscan.Skip
	Dynamic bool
}

func rows(f *testscan.File) []testRow {
	var out []testRow
	for _, tc := range f.Tests {
		out = append(out, testRow{ID: tc.ID, Line: tc.Line, EndLine: tc.EndLine, Skip: tc.Skip, Dynamic: tc.Dynamic})
	}
	return out
}
