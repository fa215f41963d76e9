package analyze

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestFoldsInto(t *testing.T) {
	tests := []struct {
		name    string
		into, x string
		want    []int
	}{
		{"template fills the count", "`${options.pass} Pass ${options.fail} Fail ${options.pass+options.fail} Total`", `"17 Pass"`, []int{0}},
		{"last part of the template", "`${options.pass} Pass ${options.fail} Fail ${total} Total`", `'19 Total'`, []int{14}},
		{"constant text pins no count", `'Pass Fail Total'`, `"17 Pass"`, nil},
		{"template without the word", "`${n} Passed`", `"17 Fail"`, nil},
		{"literal without a number", "`${n} Pass`", `"Pass"`, nil},
		{"literal without a word", "`${n}`", `"17"`, nil},
		{"the same place twice", "`${a} Pass ${b} Pass`", `"3 Pass"`, []int{0, 7}},
		{"format string", `"%d Pass %d Fail"`, `"2 Fail"`, []int{7}},
		{"not a literal", "`${n} Pass`", `want`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, foldsInto(tt.into, tt.x)); diff != "" {
				t.Errorf("foldsInto(%s, %s) (-want +got):\n%s", tt.into, tt.x, diff)
			}
		})
	}
}

func TestOperandWords(t *testing.T) {
	tests := []struct {
		name string
		x    testscan.Assertion
		want []string
	}{
		{"called function and argument", testscan.Assertion{Subject: "func()bool{if!Ready(port){return false}return true}"}, []string{"Ready", "port"}},
		{"selector chain left out, literal kept", testscan.Assertion{Subject: `await page.getByText("beforeAll").all()`, Expected: "6"}, []string{"beforeAll"}},
		{"words of a literal", testscan.Assertion{Subject: `page.getByTestId("pass-entry")`, Expected: `"17 Pass"`}, []string{"Pass", "entry", "pass"}},
		{"generic names only", testscan.Assertion{Subject: "got", Expected: "want"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for w := range operandWords(tt.x) {
				got = append(got, w)
			}
			sort.Strings(got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("operandWords (-want +got):\n%s", diff)
			}
		})
	}
}
