package python

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

func FuzzExtract(f *testing.F) {
	f.Add(original)
	f.Add("def test_a():\n    def check():\n        assert s.startswith(\"x\")\n    async def other(v):\n        assert v\n    if False:\n        assert 1\n    return\n    assert 2\n    if True: return\n")
	f.Add(reformatted)
	f.Add("import pytest\n\n@pytest.mark.parametrize('a,b', [(1, 2), pytest.param(3, 4, id='x', marks=pytest.mark.skip)])\ndef test_p(a, b):\n    assert a < b\n")
	f.Add("class T(unittest.TestCase):\n    @unittest.skipIf(X, 'r')\n    def test_a(self):\n        self.assertEqual(f'{a[\"k\"]!r:>{w}}', 1)  # noqa\n")
	f.Add("        assert x == 1\n\n\n    def test_frag(self):\n        f(a,\n\n@pytest.mark.skip\ndef test_b():\n    '''unterminated\n")
	f.Add("def test_x():\n    try:\n        go()\n    except:\n        pass\n    with suppress(E): sys.exit(0)\n    match v:\n        case 'a' | 1.5: return\n")
	f.Add("x = f'{f'{f'{1}'}'}'\nif a == 'b' in ('c',): pass\n__all__ = ['a']\n")
	f.Add("import pytest\n\ndef assert_valid(resp):\n    assert resp.status_code == 200\n\n@pytest.fixture\ndef client():\n    c = make()\n    assert c is not None\n    return c\n\ndef test_a(client):\n    assert_valid(client.get('/'))\n")
	f.Add("class T(unittest.TestCase):\n    def setUp(self): self.assertTrue(ok)\n    def check(self, x):\n        def inner(): assert x is app\n        self.assertEqual(x, 1)\n    def test_b(self):\n        self.check(1)\n")
	f.Add("import os\nfrom . import h\n\n@pytest.fixture\ndef db(tmp_path, cfg):\n    yield open_db(os.path.join(tmp_path, 'x'))\n\n@pytest.mark.usefixtures('env')\ndef test_c(db, n=1, *a):\n    h.check(db); db.q(f'{run()}'); ''.join(x); self.assertEqual(x(), 1)\n")
	f.Add("class A(ABC):\n    @abc.abstractmethod\n    def f(self):\n        '''TODO: doc'''\n        raise NotImplementedError  # TODO: x\n    def g(self): raise errors.X(f'not {implemented}' 'stub')\nraise\nraise NotImplementedError(\n")
	f.Add("class P:\n    def parse(self, s):\n        if s == 'a': return 1\n        elif (5 == s): self.k = True\n        match s.kind:\n            case 'x' | -2: return b''\n        def inner(): return\n        raise ValueError(s)\n    def g(self): raise StopIteration\n")
	f.Add("class C:\n    @property\n    def a(self): return 1\n    def b(self):\n        '''doc'''\n        return ('x' 'y')\nif X:\n    def c(): return -1\ndef d():\n    def e(): return None\n    return e\n")
	f.Add("@patch('a.b', return_value=(1, -2.0))\n@mock.patch.object(c, 'd', lambda *a: {'k': [True]})\ndef test_m(b, x):\n    with patch('e.f') as g, patch.object(h, 'i', new=lambda: None): r = d(1)\n    g.return_value = 'v'\n    monkeypatch.setattr(j, 'k', lambda: f'{l}')\n    assert r == 5\n")
	f.Add("import threading\ndef test_t():\n    def check():\n        assert f() == 1\n    threading.Thread(target=check, daemon=True).start()\n    threading.Timer(0.1, lambda: f()).start()\n    _thread.start_new_thread(check, ())\n    Thread(target=lambda: self.assertEqual(f(), 1))\n    Thread(target=\n")
	f.Fuzz(func(t *testing.T, src string) {
		prod, err := New().Extract("src/fuzz.py", []byte(src))
		if err != nil {
			t.Fatalf("Extract error: %v", err)
		}
		scantest.CheckPlaceholders(t, strings.TrimPrefix(src, "\ufeff"), prod.Placeholders)
		scantest.CheckFuncNames(t, prod)
		New().References("tests/test_fuzz.py", []byte(src), map[string]bool{"check": true, "f": true})
		file, err := New().Extract("tests/test_fuzz.py", []byte(src))
		if err != nil {
			t.Fatalf("Extract error: %v", err)
		}
		scantest.CheckPlaceholders(t, strings.TrimPrefix(src, "\ufeff"), file.Placeholders)
		scantest.CheckFuncs(t, strings.TrimPrefix(src, "\ufeff"), prod.Funcs)
		for _, tc := range file.Tests {
			if tc.ID == "" || tc.Name == "" {
				t.Fatalf("empty id or name: %+v", tc)
			}
			if tc.Line < 1 || tc.Line > tc.EndLine {
				t.Fatalf("bad lines %d..%d for %s", tc.Line, tc.EndLine, tc.ID)
			}
			if tc.Dynamic && !strings.HasSuffix(tc.ID, "*]") {
				t.Fatalf("dynamic id %q does not end in *", tc.ID)
			}
			if len(tc.Literals) > maxLiterals || len(tc.Fingerprint) != 16 {
				t.Fatalf("bad literals/fingerprint for %s", tc.ID)
			}
		}
		scantest.CheckHelperAssertions(t, file.HelperAssertions)
		scantest.CheckCalls(t, file)
		scantest.CheckMocks(t, src, file)
	})
}

// generated builds a realistic test module of about n bytes.
func generated(n int) string {
	var b strings.Builder
	b.WriteString("import pytest\nimport unittest\nfrom unittest import mock\n\n")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `
@pytest.mark.parametrize("value,expected", [(%d, "v%d"), (-%d, 'w\t%d'), pytest.param(0, "", id="zero")])
def test_case_%d(value, expected, tmp_path):
    """Checks case %d."""
    result = compute(value, path=tmp_path / "f%d.txt", opts={"a": [1, 2, 3], "b": f"{value!r:>{8}}"})
    assert result == expected  # noqa: E501
    assert result is not None
    # assert result != "old"
    if value > 100:
        pytest.skip("too big")


class TestGroup%d(unittest.TestCase):
    @unittest.skipIf(sys.platform == "win32", "posix")
    def test_method_%d(self):
        self.assertEqual(parse('''x
y'''), [1, 2])
        with self.assertRaises(ValueError):
            parse(None)
        client = mock.Mock()
        client.send.assert_called_once_with("x", retries=3)
        try:
            client.close()
        except Exception:
            pass
`, i, i, i, i, i, i, i, i, i)
	}
	return b.String()
}

func BenchmarkExtract(b *testing.B) {
	src := []byte(generated(1 << 20))
	e := New()
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.Extract("tests/test_big.py", src); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLargeFile(t *testing.T) {
	src := []byte(generated(1 << 20))
	f, err := New().Extract("tests/test_big.py", src)
	if err != nil {
		t.Fatal(err)
	}
	if f.Partial || len(f.Tests) < 1000 {
		t.Fatalf("partial=%v tests=%d", f.Partial, len(f.Tests))
	}
}

func TestPathologicalInputsTerminate(t *testing.T) {
	for name, src := range map[string]string{
		"many unterminated triples": strings.Repeat(`"""\"`, 20000),
		"deep brackets":             strings.Repeat("(", 50000),
		"deep f-strings":            strings.Repeat(`f"{`, 5000),
		"deep indentation":          deepIndent(3000),
		"many closers":              strings.Repeat(")]}", 30000),
		"long decorators":           strings.Repeat("@x\n", 30000) + "def test_a(): pass\n",
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := New().Extract("tests/test_p.py", []byte(src)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func deepIndent(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i))
		b.WriteString("if x:\n")
	}
	return b.String()
}
