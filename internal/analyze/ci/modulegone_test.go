package ci

import "testing"

// TestModuleGone tells a CI file deleted with the whole module it tested
// from one deleted while what it tested stays or moves.
func TestModuleGone(t *testing.T) {
	mk := &File{OldPath: "cmd/gen/Makefile"}
	gone := func(p string, head bool) bool { return p == "cmd" || p == "." }
	del := func(p string, test bool) *File { return &File{OldPath: p, OldTest: test} }
	for _, c := range []struct {
		name    string
		changed []*File
		exists  func(string, bool) bool
		want    string
	}{
		{"code and tests deleted with it", []*File{mk, del("cmd/gen/main.go", false), del("cmd/gen/main_test.go", true)}, gone, "cmd/gen"},
		{"only tests deleted with it", []*File{mk, del("cmd/gen/main_test.go", true)}, gone, ""},
		{"the directory stays", []*File{mk, del("cmd/gen/main.go", false)}, func(p string, head bool) bool { return true }, ""},
		{"code moved out", []*File{mk, {OldPath: "cmd/gen/main.go", NewPath: "internal/gen/main.go"}}, gone, ""},
		{"docs are not code", []*File{mk, del("cmd/gen/README.md", false)}, gone, ""},
		{"no way to tell what exists", []*File{mk, del("cmd/gen/main.go", false)}, nil, ""},
	} {
		if got := moduleGone(mk, c.changed, c.exists); got != c.want {
			t.Errorf("%s: moduleGone = %q, want %q", c.name, got, c.want)
		}
	}
	root := &File{OldPath: "Makefile"}
	if got := moduleGone(root, []*File{root, del("main.go", false)}, func(string, bool) bool { return false }); got != "" {
		t.Errorf("the repository's root Makefile: moduleGone = %q, want none", got)
	}
}
