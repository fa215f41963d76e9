package hooks

import "testing"

const onetwo = "one two"

func TestHooks(t *testing.T) {
	_, _, _ = Run([]string{"one", "two"})
	for _, v := range []struct {
		name string
		got  string
	}{
		{"pre", "one two"},
		{"run", "one two"},
		{"post", "one two"},
	} {
		if v.got != onetwo {
			t.Errorf("Expected %s %q, got %q", v.name, onetwo, v.got)
		}
	}
}
