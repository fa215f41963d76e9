package analyze

import "testing"

func TestOnParams(t *testing.T) {
	passed := map[string]bool{"MockObject.class": true, `"a,b"`: true}
	for _, c := range []struct {
		x, y string
		want bool
	}{
		{"excluder.excludeClass(MockObject.class,false)", "excluder.excludeClass(c,false)", true},
		{"excluder.excludeClass(MockObject.class,false)", "excluder.excludeClass(c,true)", false},
		{"excluder.excludeField(f,false)", "excluder.excludeField(f,false)", true},
		{"excluder.excludeClass(Other.class,false)", "excluder.excludeClass(c,false)", false}, // not what the test passes
		{"excluder.excludeClass(MockObject.class,false)", "excluder.excludeField(c,false)", false},
		{`split("a,b",x)`, `split(s,x)`, true}, // a comma in a string is no separator
		{"a.b", "a.b", false},                  // no call
		{"f(g(x,y),z)", "f(g(x,y),z)", true},
		{"f(g(x,y),z)", "f(v,z)", false},
	} {
		if got := onParams(c.x, c.y, passed); got != c.want {
			t.Errorf("onParams(%q, %q) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}
