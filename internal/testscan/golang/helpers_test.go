package golang

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

// byID finds a test case by id.
func byID(t *testing.T, f *testscan.File, id string) testscan.TestCase {
	t.Helper()
	for _, tc := range f.Tests {
		if tc.ID == id {
			return tc
		}
	}
	var ids []string
	for _, tc := range f.Tests {
		ids = append(ids, tc.ID)
	}
	t.Fatalf("no test %q among %q", id, ids)
	return testscan.TestCase{}
}
