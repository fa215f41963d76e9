package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFactsCacheBounded: the cache keeps what was read last and used again,
// within its budget, and a version handed out by Parsed stays usable after
// the cache dropped it: a FileChange that carries it instead of the contents
// is analyzed as if the contents were there.
func TestFactsCacheBounded(t *testing.T) {
	a := New(nil)
	body := func(i int) string {
		return fmt.Sprintf("package p\n\nimport \"testing\"\n\nfunc TestA%d(t *testing.T) {\n\tif got := 1; got != 2 {\n\t\tt.Fatalf(\"got %%d\", got)\n\t}\n}\n", i) + strings.Repeat("// padding\n", 20000)
	}
	const p = "p/a_test.go"
	a.Analyze(Change{Files: []FileChange{{NewPath: p, NewKey: "k0", New: []byte(body(0))}}})
	held := a.Parsed(p, "k0")
	if held == nil {
		t.Fatal("a version just read is not held")
	}
	// Read far more than two generations' budget.
	n := 3 * factsCacheBytes / len(body(0))
	for i := 1; i <= n; i++ {
		a.Analyze(Change{Files: []FileChange{{NewPath: p, NewKey: fmt.Sprint("k", i), New: []byte(body(i))}}})
	}
	if a.Parsed(p, "k0") != nil {
		t.Errorf("after %d versions of %d bytes the first is still held", n, len(body(0)))
	}
	if a.Parsed(p, fmt.Sprint("k", n)) == nil {
		t.Errorf("the last version read is not held")
	}
	// The handle still stands for its version: deleting the file is the
	// same change with the contents or with the handle.
	withData := a.Analyze(Change{Files: []FileChange{{OldPath: p, OldKey: "k0", Old: []byte(body(0))}}})
	withHandle := a.Analyze(Change{Files: []FileChange{{OldPath: p, OldKey: "k0", OldParsed: held}}})
	if len(withData) == 0 {
		t.Fatal("deleting the test file found nothing")
	}
	if d := cmp.Diff(withData, withHandle); d != "" {
		t.Errorf("a handle the cache dropped analyzes differently (-data +handle):\n%s", d)
	}
}
