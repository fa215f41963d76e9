package jsts

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// extract runs the extractor and fails the test on an error.
func extract(t *testing.T, path, src string) *testscan.File {
	t.Helper()
	f, err := New().Extract(path, []byte(src))
	if err != nil {
		t.Fatalf("Extract(%s): %v", path, err)
	}
	return f
}

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

func ids(f *testscan.File) []string {
	var out []string
	for _, tc := range f.Tests {
		out = append(out, tc.ID)
	}
	return out
}

func skip(kind testscan.SkipKind, line int) *testscan.Skip {
	return &testscan.Skip{Kind: kind, Line: line}
}

func byID(t *testing.T, f *testscan.File, id string) testscan.TestCase {
	t.Helper()
	for _, tc := range f.Tests {
		if tc.ID == id {
			return tc
		}
	}
	t.Fatalf("no test %q in %q", id, ids(f))
	return testscan.TestCase{}
}
