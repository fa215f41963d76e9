package scanners

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestReferences: each language counts the identifiers and exact string
// literals that name a function, never a comment, and not the spelling
// that keeps a function in use without running it (`_ = f`, `let _ = f`,
// `void f`); Java counts a method that may override one (neither private
// nor static) once more.
func TestReferences(t *testing.T) {
	for _, c := range []struct {
		path, src string
		want      int
	}{
		{"a_test.go", "package a\n\n// check is run by nothing\nfunc check() {}\n\nfunc TestA(t *testing.T) {\n\t_ = check\n\tt.Log(\"check\")\n}\n", 2},
		{"a_test.go", "package a\n\nfunc check() {}\n\nfunc TestA(t *testing.T) {\n\tt.Cleanup(check)\n}\n", 2},
		{"tests/test_a.py", "# check is run by nothing\ndef check():\n    pass\n\n\ndef test_a():\n    _ = check\n    print('x')\n", 1},
		{"tests/test_a.py", "def check():\n    pass\n\n\ndef test_a():\n    list(map(check, [1]))\n    getattr(mod, \"check\")\n", 3},
		{"tests/a.rs", "// check is run by nothing\nfn check() {}\n\n#[test]\nfn a() {\n    let _ = check;\n}\n", 1},
		{"tests/a.rs", "fn check(_: &i32) {}\n\n#[test]\nfn a() {\n    [1].iter().for_each(check);\n}\n", 2},
		{"test/a.test.js", "// check is run by nothing\nfunction check() {}\nit('a', () => {\n  void check;\n});\n", 1},
		{"test/a.test.js", "function check() {}\nit('a', () => {\n  [1].forEach(check);\n  const s = `check`;\n});\n", 3},
		{"src/test/java/ATest.java", "class ATest {\n    // check is run by nothing\n    private static void check() {}\n}\n", 1},
		{"src/test/java/ATest.java", "class ATest extends Base {\n    void check() {}\n}\n", 2},
	} {
		r, ok := ForPath(c.path).(testscan.Referencer)
		if !ok {
			t.Fatalf("%s: the extractor counts no references", c.path)
		}
		got := r.References(c.path, []byte(c.src), map[string]bool{"check": true})["check"]
		if got != c.want {
			t.Errorf("%s %q: %d references, want %d", c.path, c.src, got, c.want)
		}
	}
}
