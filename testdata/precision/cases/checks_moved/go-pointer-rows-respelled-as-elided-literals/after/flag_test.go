package flags

import (
	"flag"
	"io"
	"testing"
)

type flagValueTestCase struct {
	name    string
	toParse []string
	expect  string
}

func TestFlagValue(t *testing.T) {
	cases := []*flagValueTestCase{
		{
			name:    "one",
			toParse: []string{"--flag", "a,b"},
			expect:  "[a b]",
		},
		{
			name:    "two",
			toParse: []string{"--flag", "a,b", "--flag", "c"},
			expect:  "[a b c]",
		},
		{
			name:    "none",
			toParse: []string{},
			expect:  "[]",
		},
	}
	for i, v := range cases {
		set := flag.NewFlagSet("test", 0)
		set.SetOutput(io.Discard)
		Apply(set, "flag", &Slice{})
		if err := set.Parse(v.toParse); err != nil {
			t.Error(err)
		}
		if got := set.Lookup("flag").Value.String(); got != v.expect {
			t.Errorf("%d-%s: got %s, want %s", i, v.name, got, v.expect)
		}
	}
}
