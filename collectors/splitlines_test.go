package collectors

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitLines(t *testing.T) {
	// A Go profile of:
	//  9 func Div(a, b int) (int, bool) {
	// 10 	if b == 0 {
	// 11 		return 0, false
	// 12 	}
	// 13 	return a / b, true
	// 14 }
	goProfile := "mode: set\n" +
		"example.com/calc/calc.go:9.32,10.12 1 1\n" +
		"example.com/calc/calc.go:10.12,12.3 1 0\n" +
		"example.com/calc/calc.go:13.2,13.20 1 1\n"
	lcov := "TN:\nSF:src/div.js\nDA:3,1\nDA:4,0\nDA:5,2\nDA:9,0\nend_of_record\n"
	tests := []struct {
		name, format, report, file string
		lines                      []int
		covered, uncovered         []int
	}{
		{"go blocks, a line on two blocks counts as covered", FormatCoverProfile, goProfile, "example.com/calc/calc.go",
			[]int{7, 8, 9, 10, 11, 12, 13, 14}, []int{9, 10, 13}, []int{11, 12}},
		{"go, only comments changed", FormatCoverProfile, goProfile, "example.com/calc/calc.go",
			[]int{1, 2, 3}, nil, nil},
		{"lcov, unsorted and repeated lines", FormatLCOV, lcov, "src/div.js",
			[]int{9, 3, 4, 4, 6}, []int{3}, []int{4, 9}},
		{"no lines", FormatLCOV, lcov, "src/div.js", nil, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(tc.format)
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Parse("report", strings.NewReader(tc.report))
			if err != nil {
				t.Fatal(err)
			}
			f := res.Coverage.Files[tc.file]
			if f == nil {
				t.Fatalf("no file %s in %v", tc.file, res.Coverage.Paths())
			}
			cov, unc := f.SplitLines(tc.lines)
			if diff := cmp.Diff(tc.covered, cov); diff != "" {
				t.Errorf("covered (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.uncovered, unc); diff != "" {
				t.Errorf("uncovered (-want +got):\n%s", diff)
			}
		})
	}
	var nilFile *FileCoverage
	if c, u := nilFile.SplitLines([]int{1}); c != nil || u != nil {
		t.Errorf("nil file: %v %v", c, u)
	}
}
