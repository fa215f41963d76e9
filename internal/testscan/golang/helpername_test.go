package golang

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHelperNames: each helper assertion names its function ("Recv.Method" for
// a method), File.Helpers lists every helper read, also one that asserts
// nothing, and benchmarks are not named (no test calls them).
func TestHelperNames(t *testing.T) {
	src := `package calc

import (
	"testing"

	"github.com/stretchr/testify/suite"
)

type CalcSuite struct{ suite.Suite }

func (s *CalcSuite) requireSum(a, b, want int) { s.Equal(want, a+b) }

func checkAdd(t *testing.T, a, b, want int) {
	if got := Add(a, b); got != want {
		t.Fatalf("got %d", got)
	}
}

func logAdd(t *testing.T, a, b int) { t.Logf("%d", Add(a, b)) }

func BenchmarkAdd(b *testing.B) {
	if Add(1, 2) != 3 {
		b.Fatal("wrong")
	}
}

func TestAdd(t *testing.T) { checkAdd(t, 1, 2, 3) }
`
	f, err := (&Extractor{}).Extract("calc_test.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"CalcSuite.requireSum", "checkAdd", "logAdd"}, f.Helpers); diff != "" {
		t.Errorf("Helpers (-want +got):\n%s", diff)
	}
	got := map[string]int{}
	for _, x := range f.HelperAssertions {
		got[x.Helper]++
	}
	if diff := cmp.Diff(map[string]int{"CalcSuite.requireSum": 1, "checkAdd": 1, "": 1}, got); diff != "" {
		t.Errorf("helper assertions by helper (-want +got):\n%s", diff)
	}
}
