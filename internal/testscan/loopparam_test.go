package testscan

import "testing"

func TestLoopParam(t *testing.T) {
	params := []string{"t", "cases"}
	for _, c := range []struct {
		cond, want string
	}{
		{"range cases", "cases"},
		{"for text , want in cases", "cases"},
		{"for(input,expected)in cases", "cases"},
		{"for ( a , b ) in cases . iter ( )", "cases"},
		{"for ( a , b ) in & cases", "cases"},
		{"for(const c of cases)", "cases"},
		{"for _, c := range cases", "cases"},
		{"range fixed", ""},
		{"for x in cases[:1]", ""},
		{"for i := 0; i<len(cases); i++", ""},
		{"if len(cases) > 0", ""},
		{"for index in range(3)", ""},
	} {
		if got := LoopParam([]Arm{{Cond: c.cond}}, params); got != c.want {
			t.Errorf("LoopParam(%q) = %q, want %q", c.cond, got, c.want)
		}
	}
	if got := LoopParam([]Arm{{Cond: "range cases"}}, nil); got != "" {
		t.Errorf("no params: %q", got)
	}
}
