package analyze

import "testing"

func TestGlobRegexp(t *testing.T) {
	for _, tt := range []struct {
		glob, path string
		want       bool
	}{
		{"test/**/**.{test,spec}.ts", "test/a.test.ts", true},
		{"test/**/**.{test,spec}.ts", "test/x/y/a.spec.ts", true},
		{"test/**/**.{test,spec}.ts", "fixtures/x/a.test.ts", false},
		{"./test/**/*.test.ts", "test/a.test.ts", true},
		{vitestDefaultInclude, "fixtures/run-mode/example.test.ts", true},
		{vitestDefaultInclude, "src/a.spec.mjs", true},
		{vitestDefaultInclude, "src/a.test.tsx", true},
		{vitestDefaultInclude, "src/a.ts", false},
		{"src/*.test.ts", "src/x/a.test.ts", false},
		{"**", "any/thing.js", true},
		{"a/[!b]c.ts", "a/xc.ts", true},
		{"a/[!b]c.ts", "a/bc.ts", false},
	} {
		re, err := globRegexp(tt.glob)
		if err != nil {
			t.Fatalf("globRegexp(%q): %v", tt.glob, err)
		}
		if got := re.MatchString(tt.path); got != tt.want {
			t.Errorf("%q matches %q = %v, want %v (%s)", tt.glob, tt.path, got, tt.want, re)
		}
	}
	for _, g := range []string{"!test/**", "+(a|b).ts", "a/{b", "", "/abs/**"} {
		if _, err := globRegexp(g); err == nil {
			t.Errorf("globRegexp(%q) read; want an error", g)
		}
	}
}
