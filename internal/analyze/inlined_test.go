package analyze

import (
	"strings"
	"testing"
)

// TestDeclBody reads a declaration's lines by their indentation, the same
// way in the languages with braces and in Python.
func TestDeclBody(t *testing.T) {
	for _, c := range []struct {
		name, src string
		line, n   int
	}{
		{"go", "package m\n\nfunc a() int {\n\tx := 1\n\n\treturn x\n}\n\nfunc b() {}\n", 3, 5},
		{"python", "def a():\n    x = 1\n\n    return x\n\n\ndef b():\n    pass\n", 1, 6},
		{"python method", "class C:\n    def a(self):\n        return 1\n\n    def b(self):\n        return 2\n", 2, 3},
		{"js object literal body", "export default function f(url) {\n\tconst o = {\n\t\tprotocol: url.protocol,\n\t}\n\treturn o\n}\nexport const x = 1\n", 1, 6},
		{"one line", "func a() int { return 1 }\nfunc b() {}\n", 1, 1},
	} {
		lines := strings.Split(c.src, "\n")
		if got := declBody(lines, c.line); len(got) != c.n {
			t.Errorf("%s: declBody = %d lines %q, want %d", c.name, len(got), got, c.n)
		}
	}
	if got := declBody([]string{"x"}, 5); got != nil {
		t.Errorf("a line past the end: %q", got)
	}
}

// TestCodeCameBack needs most of a declaration's code lines, and two at
// least, among the production code after the change.
func TestCodeCameBack(t *testing.T) {
	now := map[string]bool{"protocol: url.protocol": true, "hostname: url.hostname": true}
	body := []string{"function f(url) {", "\tconst o = {", "\t\tprotocol: url.protocol,", "\t\thostname: url.hostname,", "\t}", "\treturn o", "}"}
	if !codeCameBack(body, now) {
		t.Errorf("an object literal moved into the caller did not come back")
	}
	if codeCameBack(body[:3], now) {
		t.Errorf("one line back is not enough")
	}
	if codeCameBack(append(body, "\tconst other = compute(url.search)", "\tconst more = compute(url.hash)"), now) {
		t.Errorf("two of four code lines came back, which is half; with the header's line, less")
	}
}

func FuzzDeclBody(f *testing.F) {
	for _, s := range []string{"func a() {\n\tx()\n}\n", "def a():\n    pass\n", "", "\n\n}", "\tx\n  y\nend\n"} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, src string, line int) {
		lines := strings.Split(src, "\n")
		body := declBody(lines, line)
		if line < 1 || line > len(lines) {
			if body != nil {
				t.Fatalf("declBody past the lines: %q", body)
			}
			return
		}
		if len(body) == 0 || body[0] != lines[line-1] {
			t.Fatalf("declBody(%d) = %q does not start at the header", line, body)
		}
	})
}
