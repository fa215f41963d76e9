package analyze

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnwrap(t *testing.T) {
	ws := map[string]bool{"u": true, "text": true}
	tests := []struct{ in, want string }{
		{`post(url, data=u('[{"some": "data"}]'), files={'some': f})`, `post(url, data='[{"some": "data"}]', files={'some': f})`},
		{`u("a") + u( "b" )`, `"a" + "b"`},
		{`shout(text(text("hi")))`, `shout("hi")`},
		{`u("a", "b")`, `u("a", "b")`}, // two arguments: no identity call
		{`menu("a")`, `menu("a")`},     // another name ending in u
		{`x.u("a")`, `x.u("a")`},       // a method of that name
		{`f("u('a')")`, `f("u('a')")`}, // inside a string
		{`u(`, `u(`},                   // never closed
		{`u([1, 2])`, `[1, 2]`},        // one argument holding commas
		{"`${u(x)}`", "`${u(x)}`"},     // a template literal is copied
	}
	for _, tc := range tests {
		if got := unwrap(tc.in, ws); got != tc.want {
			t.Errorf("unwrap(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestIdentitiesIn(t *testing.T) {
	src := `
import sys

if sys.version_info[0] >= 3:
    def u(s):
        return s
else:
    def u(s):
        return s.decode("unicode-escape")

def documented(x) -> str:
    """Returns x."""
    return x

def other(x):
    y = x
    return y

def enc(s):
    return s.encode()

function text(s) {
  return s;
}

export function same(v) { return v }

function twice(v) {
  log(v);
  return v;
}

const id = (x) => x;
let bare = x => x;
const inc = (x) => x + 1;
const pick = (x) => y;
`
	got := identitiesIn(strings.Split(src, "\n"))
	want := map[string]bool{"u": true, "documented": true, "text": true, "same": true, "id": true, "bare": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("identities (-want +got):\n%s", diff)
	}
}

func FuzzUnwrap(f *testing.F) {
	for _, s := range []string{`post(u('a'), b)`, `u(u(u("x")))`, "`a${u(b)}`", `u("unclosed`, `u(`, `(u)(x)`, `u('a', 'b')`, strings.Repeat("u(", 5000) + strings.Repeat(")", 4999)} {
		f.Add(s)
	}
	ws := map[string]bool{"u": true}
	f.Fuzz(func(t *testing.T, s string) {
		got := unwrap(s, ws)
		if len(got) > len(s) {
			t.Fatalf("unwrap(%q) = %q grew", s, got)
		}
		if !strings.Contains(s, "u") && got != s {
			t.Fatalf("unwrap(%q) = %q without a wrapper", s, got)
		}
	})
}
