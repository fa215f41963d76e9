package java

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAssertionArms: a check's arms are the if/else branches it sits in
// (an else if continues its chain), the braceless body of an if, and a try
// block whose catch drops a failed assertion; loops, a catch that catches
// no assertion failure and one that rethrows add none.
func TestAssertionArms(t *testing.T) {
	f := extract(t, "src/test/java/x/ATest.java", `package x;

class ATest {
    @Test
    void t() {
        assertEquals(0, a());
        if (b == 1) {
            assertEquals(1, a());
        } else if (c) {
            assertEquals(2, a());
        } else {
            for (int i = 0; i < 2; i++) {
                assertEquals(3, a());
            }
        }
        if (d) assertEquals(4, a());
        try {
            assertEquals(5, a());
        } catch (IllegalStateException | AssertionError e) {
            log(e);
        }
        try {
            assertEquals(6, a());
        } catch (Exception e) {
        }
        try {
            assertEquals(7, a());
        } catch (Throwable e) {
            throw new RuntimeException(e);
        }
    }
}
`)
	if len(f.Tests) != 1 {
		t.Fatalf("tests = %d", len(f.Tests))
	}
	var got [][]string
	for _, x := range f.Tests[0].Assertions {
		var arms []string
		for _, a := range x.Arms {
			arms = append(arms, fmt.Sprintf("%s#%d", a.Cond, a.Index))
		}
		got = append(got, arms)
	}
	want := [][]string{
		nil,
		{"if(b==1)#0"},
		{"if(b==1)#1"},
		{"if(b==1)#2"},
		{"if(d)#0"},
		{"swallowed by catch(IllegalStateException|AssertionError e)#0"},
		nil,
		nil,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("arms (-want +got):\n%s", diff)
	}
}
