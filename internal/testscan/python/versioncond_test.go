package python

import (
	"testing"
)

func TestVersionCond(t *testing.T) {
	for _, c := range []struct {
		cond   string
		unless bool
		want   string
	}{
		{"sys.version_info >= (3, 7)", false, "<3.7"},
		{"sys.version_info >= (3, 7):", false, "<3.7"},
		{"sys.version_info[:2] > (3, 8)", false, "<=3.8"},
		{"sys.version_info > (3,)", false, "<=3"},
		{"sys.version_info.major >= 3", false, "<3"},
		{"sys.version_info[0] > 2", false, "<=2"},
		{"version_info >= (3, 10, 1)", false, "<3.10.1"},
		{"(3, 7) <= sys.version_info", false, "<3.7"},
		{"not sys.version_info < (3, 7)", false, "<3.7"},
		{"not not sys.version_info >= (3, 7)", false, "<3.7"},
		// skipUnless(cond) skips when cond does not hold.
		{"sys.version_info < (3, 7)", true, "<3.7"},
		{"sys.version_info >= (3, 7)", true, ""},
		// Skipped before a version: it runs on every later one.
		{"sys.version_info < (3, 7)", false, ""},
		{"sys.version_info <= (3, 7)", false, ""},
		{"(3, 7) > sys.version_info", false, ""},
		// Not the version alone.
		{"sys.version_info >= (3, 7) and WIN", false, ""},
		{"sys.version_info >= (3, 7) or PYPY", false, ""},
		{"sys.version_info >= MIN", false, ""},
		{"sys.version_info >= (3, x)", false, ""},
		{"sys.version_info == (3, 7)", false, ""},
		{"sys.platform >= (3, 7)", false, ""},
		{"len(sys.version_info) >= (3, 7)", false, ""},
		{"sys.version_info >= (3, 7) >= y", false, ""},
		{"sys.version_info.major >= (3, 7)", false, ""},
		{"sys.version_info >= 3, 7)", false, ""},
		{"sys.version_info >= (3, 7", false, ""},
		{"", false, ""},
	} {
		toks, _, _ := lex(c.cond)
		if got := versionCond(toks, c.unless); got != c.want {
			t.Errorf("versionCond(%q, unless=%v) = %q, want %q", c.cond, c.unless, got, c.want)
		}
	}
}

func TestVersionSkipsRecorded(t *testing.T) {
	src := `import sys
import unittest
import pytest

@pytest.mark.skipif(sys.version_info >= (3, 7), reason="only 3.6")
def test_mark():
    assert f() == 1

def test_body():
    if sys.version_info[:2] > (3, 8):
        pytest.skip("old only")
    assert f() == 1

class T(unittest.TestCase):
    @unittest.skipUnless(sys.version_info < (3, 7), "3.6 only")
    def test_unless(self):
        self.assertEqual(f(), 1)

    @unittest.skipIf(sys.version_info < (3, 7), "new only")
    def test_new(self):
        self.assertEqual(f(), 1)
`
	f, err := New().Extract("tests/test_v.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"test_mark": "<3.7", "test_body": "<=3.8", "T::test_unless": "<3.7", "T::test_new": ""}
	for _, tc := range f.Tests {
		w, ok := want[tc.ID]
		if !ok {
			continue
		}
		delete(want, tc.ID)
		if tc.Skip == nil {
			t.Errorf("%s: no skip", tc.ID)
			continue
		}
		if tc.Skip.Runtime != w {
			t.Errorf("%s: Runtime %q, want %q", tc.ID, tc.Skip.Runtime, w)
		}
	}
	for id := range want {
		t.Errorf("%s not found", id)
	}
}

func FuzzVersionCond(f *testing.F) {
	f.Add("sys.version_info >= (3, 7)", false)
	f.Add("not (3,) < sys.version_info[:2]:", true)
	f.Add("sys.version_info.major >= 3", false)
	f.Fuzz(func(t *testing.T, cond string, unless bool) {
		toks, _, _ := lex(cond)
		got := versionCond(toks, unless)
		if got != "" && got[0] != '<' {
			t.Fatalf("versionCond(%q) = %q: not an upper bound", cond, got)
		}
	})
}
