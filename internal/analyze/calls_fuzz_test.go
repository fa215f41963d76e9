package analyze

import (
	"bytes"
	"testing"
)

// TestDeclared: the helper names a file may declare, read from its text.
func TestDeclared(t *testing.T) {
	src := []byte("package p\n\nfunc newTestDB(t testing.TB, opts ...opt) *DB {\n}\n\nfunc (m *mock) Close() error { return nil }\n\nfunc (f *fixture) open(\n\tt *testing.T,\n) *DB {\n}\n\nfunc Open(dir string) (*DB, error) {\n}\n\nfunc check[T any](t *testing.T, x T) {}\n")
	got := goDeclared(src)
	for _, name := range []string{"newTestDB", "open", "check"} {
		if !got[name] {
			t.Errorf("goDeclared misses %s: %v", name, got)
		}
	}
	for _, name := range []string{"Close", "Open"} {
		if got[name] {
			t.Errorf("goDeclared takes %s, which takes no testing value: %v", name, got)
		}
	}
	if !goDeclared([]byte("type S struct{ suite.Suite }\n\nfunc (s *S) reopen() {}\n"))["reopen"] {
		t.Error("a method of a file with suites is a helper whatever it takes")
	}
	py := keywordDeclared([]byte("def get_ok(client, url):\n    pass\n\nasync def db():\n    yield 1\nx = 'def fake('\n"), "def ")
	if !py["get_ok"] || !py["db"] {
		t.Errorf("keywordDeclared(def): %v", py)
	}
}

// FuzzDeclared: the declaration scanners never panic, and every name they
// return is an identifier that the source holds.
func FuzzDeclared(f *testing.F) {
	f.Add([]byte("func newTestDB(t testing.TB) *DB {}\nfunc (m *mock) Close() {}\n"))
	f.Add([]byte("func (\nfunc (x) \nfunc a["))
	f.Add([]byte("def x(\nfn y<T>(\ndef "))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, m := range []map[string]bool{goDeclared(src), keywordDeclared(src, "def "), keywordDeclared(src, "fn ")} {
			for name := range m {
				if name == "" || identLen([]byte(name)) != len(name) || !bytes.Contains(src, []byte(name)) {
					t.Fatalf("bad name %q from %q", name, src)
				}
			}
		}
	})
}
