package hooks

import "testing"

const onetwo = "one two"

func TestHooks(t *testing.T) {
	pre, run, post := Run([]string{"one", "two"})
	_, _, _ = pre, run, post
	for _, v := range []struct {
		name string
		got  string
	}{} {
		if v.got != onetwo {
			t.Errorf("Expected %s %q, got %q", v.name, onetwo, v.got)
		}
	}
}
