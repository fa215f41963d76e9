package collectors

import (
	"strings"
	"testing"
)

func TestFilterByPackage(t *testing.T) {
	events := `{"Action":"run","Package":"m/a","Test":"TestA"}
{"Action":"pass","Package":"m/a","Test":"TestA"}
{"Action":"pass","Package":"m/a"}
{"Action":"run","Package":"m/b","Test":"TestB"}
{"Action":"fail","Package":"m/b","Test":"TestB"}
{"Action":"fail","Package":"m/b"}
`
	tests, err := GoTest{}.Parse("go test", strings.NewReader(events))
	if err != nil {
		t.Fatal(err)
	}
	cover, err := CoverProfile{}.Parse("cover.out", strings.NewReader("mode: set\nm/a/a.go:3.20,3.30 1 1\nm/b/b.go:3.20,3.30 1 0\nm/b/inner/i.go:1.1,1.2 1 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := Merge(tests, cover)
	b := r.Filter(func(unit string) bool { return unit == "m/b" })
	if ids := b.Tests.IDs(); len(ids) != 1 || ids[0] != "m/b.TestB" {
		t.Errorf("m/b's tests: %v", ids)
	}
	if len(b.Coverage.Files) != 1 || b.Coverage.Files["m/b/b.go"] == nil {
		t.Errorf("m/b's coverage: %v", b.Coverage.Paths())
	}
	if pct, ok := b.Coverage.Percent(); !ok || pct != 0 {
		t.Errorf("m/b's coverage %v %v, want 0", pct, ok)
	}
	// The parts put back together are the whole.
	a := r.Filter(func(unit string) bool { return unit != "m/b" })
	back := Merge(a, b)
	if back.Tests.Len() != r.Tests.Len() || len(back.Coverage.Files) != len(r.Coverage.Files) {
		t.Errorf("a and b merged: %d tests, %d files; whole: %d, %d", back.Tests.Len(), len(back.Coverage.Files), r.Tests.Len(), len(r.Coverage.Files))
	}
	if r.Filter(func(string) bool { return false }).Tests.Len() != 0 {
		t.Error("nothing kept, tests left")
	}
	var none *Result
	if none.Filter(func(string) bool { return true }) != nil {
		t.Error("a nil result filtered to non-nil")
	}
}
