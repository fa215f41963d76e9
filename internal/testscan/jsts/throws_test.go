package jsts

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestFailureExpectingCalls: a check inside expect(fn).toThrow() (no
// argument, Error), chai's .to.throw(), assert.throws(fn) or
// assert.rejects(fn) gets an Inverted arm; a message or a specific error
// type, which a failed check does not match, gives none.
func TestFailureExpectingCalls(t *testing.T) {
	for _, c := range []struct {
		body string
		want bool
	}{
		{"expect(() => expect(f()).toBe(1)).toThrow();", true},
		{"expect(() => { expect(f()).toBe(1); }).toThrowError(Error);", true},
		{"expect(() => expect(f()).toBe(1)).to.throw();", true},
		{"assert.throws(() => { expect(f()).toBe(1); });", true},
		{"expect(() => { g(); expect(f()).toBe(1); }).toThrow(\"bad\");", false},
		{"expect(() => { g(); expect(f()).toBe(1); }).toThrow(TypeError);", false},
		{"expect(() => { g(); expect(f()).toBe(1); }).not.toThrow();", false},
		{"assert.throws(() => { g(); expect(f()).toBe(1); }, /bad/);", false},
	} {
		src := "it('x', () => {\n  " + c.body + "\n});\n"
		f, err := New().Extract("x.test.js", []byte(src))
		if err != nil || len(f.Tests) != 1 {
			t.Fatalf("extract: %v %+v", err, f)
		}
		got := false
		for _, x := range f.Tests[0].Assertions {
			if x.Kind != "toBe" {
				continue
			}
			for _, a := range x.Arms {
				got = got || strings.HasPrefix(a.Cond, testscan.Inverted)
			}
		}
		if got != c.want {
			t.Errorf("%q: inverted = %v, want %v", c.body, got, c.want)
		}
	}
}

// TestGeneratorNeverIterated: the checks of a local generator that the test
// only calls as a statement never run; iterated they do.
func TestGeneratorNeverIterated(t *testing.T) {
	for _, c := range []struct {
		body   string
		checks int
	}{
		{"function* check() {\n    expect(f()).toBe(1);\n  }\n  check();", 0},
		{"function* check() {\n    expect(f()).toBe(1);\n  }\n  check()", 0},
		{"function* check() {\n    expect(f()).toBe(1);\n  }\n  [...check()];", 1},
		{"function* check() {\n    expect(f()).toBe(1);\n  }\n  for (const x of check()) {}", 1},
		{"function check() {\n    expect(f()).toBe(1);\n  }\n  check();", 1},
	} {
		f, err := New().Extract("x.test.js", []byte("it('x', () => {\n  "+c.body+"\n});\n"))
		if err != nil || len(f.Tests) != 1 {
			t.Fatalf("extract: %v %+v", err, f)
		}
		if got := len(f.Tests[0].Assertions); got != c.checks {
			t.Errorf("%q: %d checks, want %d", c.body, got, c.checks)
		}
	}
}
