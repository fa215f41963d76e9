package hooks

import "testing"

const onetwo = "one two"

func TestHooks(t *testing.T) {
	pre, run, post := Run([]string{"one", "two"})
	for _, v := range []struct {
		name string
		got  string
	}{
		{"pre", pre},
		{"run", run},
		{"post", post},
	} {
		if v.got != onetwo {
			t.Errorf("Expected %s %q, got %q", v.name, onetwo, v.got)
		}
	}
}
