package analyze

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRustModuleOf(t *testing.T) {
	cargo := map[string]bool{"Cargo.toml": true, "tokio-util/Cargo.toml": true}
	exists := func(p string, _ bool) bool { return cargo[p] }
	tests := []struct{ path, crate, module string }{
		{"tokio-util/src/sync/tests/loom_cancellation_token.rs", "tokio-util", "loom_cancellation_token"},
		{"tokio-util/src/sync/tests/mod.rs", "tokio-util", "tests"},
		{"src/net/tcp.rs", ".", "tcp"},
		{"src/lib.rs", "", ""},
		{"src/main.rs", "", ""},
		{"src/bin/tool.rs", "", ""},
		{"tokio-util/tests/udp.rs", "", ""},
		{"tokio-util/benches/b.rs", "", ""},
		{"nocrate/src/x.rs", "", ""}, // no Cargo.toml above src/
		{"src/sub/lib.rs", ".", "lib"},
	}
	for _, tt := range tests {
		crate, module := rustModuleOf(tt.path, exists)
		if module == "" {
			crate = ""
		}
		if crate != tt.crate || module != tt.module {
			t.Errorf("rustModuleOf(%q) = %q, %q; want %q, %q", tt.path, crate, module, tt.crate, tt.module)
		}
	}
}

func TestMayCompile(t *testing.T) {
	src := func(p, s string) Source { return Source{Path: p, Data: []byte(s)} }
	tests := []struct {
		name  string
		files []Source
		want  bool
	}{
		{"nothing declares it", []Source{src("src/lib.rs", "mod sync;\n"), src("src/sync/tests/mod.rs", "\n"), src("Cargo.toml", "[package]\nname = \"x\"\n")}, false},
		{"declared in its parent", []Source{src("src/sync/tests/mod.rs", "#[cfg(loom)]\nmod loom_token;\n")}, true},
		{"a path attribute elsewhere", []Source{src("other/tests/t.rs", "#[path = \"../../src/sync/tests/loom_token.rs\"]\nmod t;\n")}, true},
		{"a Cargo.toml target", []Source{src("Cargo.toml", "[[test]]\nname = \"loom\"\npath = \"src/sync/tests/loom_token.rs\"\n")}, true},
	}
	for _, tt := range tests {
		if got := mayCompile(tt.files, "loom_token"); got != tt.want {
			t.Errorf("%s: mayCompile = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestHeadRustFiles: the new side's Rust files are the base's with the
// change applied; a changed version not at hand reads nothing.
func TestHeadRustFiles(t *testing.T) {
	src := func(p, s string) Source { return Source{Path: p, Data: []byte(s)} }
	base := []Source{src("Cargo.toml", "[package]\n"), src("src/lib.rs", "pub fn f() {}\n"), src("src/old.rs", "\n")}
	ch := Change{
		Files: []FileChange{
			{OldPath: "src/lib.rs", NewPath: "src/lib.rs", Old: []byte("pub fn f() {}\n"), New: []byte("mod moved;\n")},
			{OldPath: "src/old.rs", Old: []byte("\n")},
			{NewPath: "src/moved.rs", New: []byte("#[test]\nfn t() {}\n")},
		},
		BaseFiles: func(string, func(string) bool, int) ([]Source, bool) { return base, true },
	}
	got := map[string]string{}
	for _, s := range headRustFiles(ch) {
		got[s.Path] = string(s.Data)
	}
	want := map[string]string{"Cargo.toml": "[package]\n", "src/lib.rs": "mod moved;\n", "src/moved.rs": "#[test]\nfn t() {}\n"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("headRustFiles (-want +got):\n%s", d)
	}
	ch.Files[0].New = nil // handed as a parsed version only
	if fs := headRustFiles(ch); fs != nil {
		t.Errorf("with a changed version not at hand: %v, want nil", fs)
	}
}
