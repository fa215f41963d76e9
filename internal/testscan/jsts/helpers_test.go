package jsts

import (
	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

// extract runs the extractor and fails the test on an error.
var extract = scantest.ExtractWith(New())

// testRow is the part of a TestCase the structure tests compare.
type testRow struct {
	ID      string
	Line    int
	EndLine int
	Skip    *testscan.Skip
	Only    bool
	Dynamic bool
}

func rows(f *testscan.File) []testRow {
	var out []testRow
	for _, tc := range f.Tests {
		out = append(out, testRow{ID: tc.ID, Line: tc.Line, EndLine: tc.EndLine, Skip: tc.Skip, Only: tc.Only, Dynamic: tc.Dynamic})
	}
	return out
}

func skip(kind testscan.SkipKind, line int) *testscan.Skip {
	return &testscan.Skip{Kind: kind, Line: line}
}
