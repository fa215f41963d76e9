package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHelperNames: each helper assertion names its method ("Class.method"),
// and File.Helpers lists every non-test method, also one that asserts nothing.
func TestHelperNames(t *testing.T) {
	src := `package calc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CalcTest {
    private void checkAdd(int a, int b, int want) {
        assertEquals(want, Calc.add(a, b));
    }

    private void show(int a) {
        System.out.println(a);
    }

    @Test
    void adds() {
        checkAdd(1, 2, 3);
    }
}
`
	f := extract(t, "src/test/java/calc/CalcTest.java", src)
	if diff := cmp.Diff([]string{"CalcTest.checkAdd", "CalcTest.show"}, f.Helpers); diff != "" {
		t.Errorf("Helpers (-want +got):\n%s", diff)
	}
	if len(f.HelperAssertions) != 1 || f.HelperAssertions[0].Helper != "CalcTest.checkAdd" {
		t.Errorf("HelperAssertions = %+v, want one in CalcTest.checkAdd", f.HelperAssertions)
	}
}
