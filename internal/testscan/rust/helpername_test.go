package rust

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHelperNames: each helper assertion names its function ("module::fn"),
// and File.Helpers lists every non-test function, also one that asserts
// nothing.
func TestHelperNames(t *testing.T) {
	src := `pub fn add(a: i32, b: i32) -> i32 { a + b }

#[cfg(test)]
mod tests {
    use super::*;

    fn check_add(a: i32, b: i32, want: i32) {
        assert_eq!(add(a, b), want);
    }

    fn show(a: i32) {
        println!("{}", a);
    }

    #[test]
    fn adds() {
        check_add(1, 2, 3);
    }
}
`
	f := extract(t, "src/lib.rs", src)
	if diff := cmp.Diff([]string{"add", "tests::check_add", "tests::show"}, f.Helpers); diff != "" {
		t.Errorf("Helpers (-want +got):\n%s", diff)
	}
	if len(f.HelperAssertions) != 1 || f.HelperAssertions[0].Helper != "tests::check_add" {
		t.Errorf("HelperAssertions = %+v, want one in tests::check_add", f.HelperAssertions)
	}
}
