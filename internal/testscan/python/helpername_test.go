package python

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHelperNames: each helper assertion names its function, and File.Helpers
// lists every non-test function, also one that asserts nothing.
func TestHelperNames(t *testing.T) {
	src := "from calc import add\n\n\ndef check_add(a, b, want):\n    assert add(a, b) == want\n\n\ndef show(a, b):\n    print(add(a, b))\n\n\ndef test_add():\n    check_add(1, 2, 3)\n"
	f, err := (&Extractor{}).Extract("tests/test_calc.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"check_add", "show"}, f.Helpers); diff != "" {
		t.Errorf("Helpers (-want +got):\n%s", diff)
	}
	if len(f.HelperAssertions) != 1 || f.HelperAssertions[0].Helper != "check_add" {
		t.Errorf("HelperAssertions = %+v, want one in check_add", f.HelperAssertions)
	}
}
