package python

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestExtractPlaceholders(t *testing.T) {
	for _, tc := range []struct {
		name, path, src string
		want            []testscan.Marker
	}{
		{
			name: "comments",
			src: "# TODO(ana): handle   overflow\n" +
				"x = 1  # FIXME: zero\n" +
				"##XXX\n" +
				"# see TODO list\n" +
				"# TODOS are tracked elsewhere; XXXL is a size\n" +
				"# XXXL\n" +
				"# todo lowercase is prose\n" +
				"# noqa  # TODO not at the start\n",
			want: []testscan.Marker{
				{Line: 1, Kind: "todo-comment", Text: "TODO(ana): handle overflow"},
				{Line: 2, Kind: "todo-comment", Text: "FIXME: zero"},
				{Line: 3, Kind: "todo-comment", Text: "XXX"},
			},
		},
		{
			name: "strings are not comments",
			src: "s = '# TODO: a string'\n" +
				"f = f\"{x}  # TODO in an f-string {y!r}\"\n" +
				"r = r'''\n# FIXME inside a raw triple string\n'''\n" +
				"def g(x):\n    \"\"\"TODO: a docstring.\"\"\"\n    return x\n",
		},
		{
			name: "raises",
			src: "def mul(a, b):\n    raise NotImplementedError\n\n" +
				"def div(a, b):\n    raise NotImplementedError( 'later' )\n\n" +
				"def sub(a, b):\n    if a:\n        raise ValueError('not implemented')\n    raise errors.NotImplementedError\n\n" +
				"def add(a, b): raise RuntimeError(f'TODO: {a}')\n" +
				"def neg(a): raise Unsupported('not ' 'yet implemented') from None\n",
			want: []testscan.Marker{
				{Line: 2, Kind: "not-implemented", Text: "raise NotImplementedError"},
				{Line: 5, Kind: "not-implemented", Text: `raise NotImplementedError("later")`},
				{Line: 9, Kind: "not-implemented", Text: `raise ValueError("not implemented")`},
				{Line: 10, Kind: "not-implemented", Text: "raise errors.NotImplementedError"},
				{Line: 12, Kind: "not-implemented", Text: `raise RuntimeError(f"TODO: {a}")`},
				{Line: 13, Kind: "not-implemented", Text: `raise Unsupported("not " "yet implemented")from None`},
			},
		},
		{
			name: "legitimate raises",
			src: "def get(i):\n    raise IndexError('index out of range')\n\n" +
				"def h(e):\n    raise\n\n" +
				"def k(e):\n    raise e\n\n" +
				"def m(msg):\n    raise ValueError(msg)\n\n" +
				"def n():\n    raise ValueError('TODOS overflowed')\n",
		},
		{
			name: "abstract method stubs",
			src: "import abc\nfrom abc import ABC, abstractmethod\n\n" +
				"class Shape(ABC):\n" +
				"    def area(self):\n        raise NotImplementedError\n\n" +
				"    def name(self):\n        \"\"\"The shape's name.\"\"\"\n        raise NotImplementedError('subclasses name themselves')\n\n" +
				"    def perimeter(self): raise NotImplementedError()\n\n" +
				"    if TYPE_CHECKING:\n        def corners(self):\n            raise NotImplementedError\n\n" +
				"    @abstractmethod\n    def scale(self, k):\n        if k < 0:\n            raise NotImplementedError\n        return self\n\n" +
				"    @abc.abstractproperty\n    def kind(self):\n        raise NotImplementedError\n\n" +
				"    def draw(self):\n        self.check()\n        raise NotImplementedError\n\n" +
				"    def rotate(self):\n        raise ValueError('not implemented')\n\n" +
				"@abc.abstractmethod\ndef free():\n    raise NotImplementedError\n\n" +
				"def top():\n    raise NotImplementedError\n\n" +
				"def outer():\n    class Local:\n        def f(self):\n            raise NotImplementedError\n    def inner():\n        raise NotImplementedError\n",
			want: []testscan.Marker{
				{Line: 30, Kind: "not-implemented", Text: "raise NotImplementedError"}, // draw: not the whole body
				{Line: 33, Kind: "not-implemented", Text: `raise ValueError("not implemented")`},
				{Line: 40, Kind: "not-implemented", Text: "raise NotImplementedError"}, // top: not a method
				{Line: 47, Kind: "not-implemented", Text: "raise NotImplementedError"}, // inner: not a method
			},
		},
		{
			name: "order: comments, then statements",
			path: "tests/test_calc.py",
			src: "def test_mul():\n    raise NotImplementedError  # TODO: write the test\n\n" +
				"# FIXME: flaky\n",
			want: []testscan.Marker{
				{Line: 2, Kind: "todo-comment", Text: "TODO: write the test"},
				{Line: 4, Kind: "todo-comment", Text: "FIXME: flaky"},
				{Line: 2, Kind: "not-implemented", Text: "raise NotImplementedError"},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.path
			if p == "" {
				p = "src/calc.py"
			}
			f, err := New().Extract(p, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, f.Placeholders); diff != "" {
				t.Errorf("placeholders (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExtractConstantBodies: a production def whose whole body returns a
// constant is a "constant-body" placeholder, named as FuncNames names it; a
// body that computes, a def that declares (abstract, property, overload,
// deprecated), a nested def and a test file's are not.
func TestExtractConstantBodies(t *testing.T) {
	for _, tc := range []struct {
		name, path, src string
		want            []testscan.Marker
		funcs           []string
	}{
		{
			name: "constants",
			src: "def total(items):\n    return 0\n\n" +
				"def label():\n    '''The label.'''\n    return 'none'\n\n" +
				"async def ready(): return True\n" +
				"def empty():\n    return []\n\n" +
				"def neg():\n    return -1.5\n\n" +
				"def nothing():\n    return None\n\n" +
				"def joined():\n    return ('a'\n            'b')\n\n" +
				"def _private():\n    return {}\n\n" +
				"class Cart:\n    def total(self):\n        return 0\n\n" +
				"    class Line:\n        def price(self): return 0.0\n\n" +
				"if PY2:\n    def compat():\n        return False\n",
			want: []testscan.Marker{
				{Line: 2, Kind: "constant-body", Text: "total", Value: "return 0"},
				{Line: 6, Kind: "constant-body", Text: "label", Value: `return "none"`},
				{Line: 8, Kind: "constant-body", Text: "ready", Value: "return True"},
				{Line: 10, Kind: "constant-body", Text: "empty", Value: "return []"},
				{Line: 13, Kind: "constant-body", Text: "neg", Value: "return -1.5"},
				{Line: 16, Kind: "constant-body", Text: "nothing", Value: "return None"},
				{Line: 19, Kind: "constant-body", Text: "joined", Value: `return "a" "b"`},
				{Line: 23, Kind: "constant-body", Text: "_private", Value: "return {}"},
				{Line: 27, Kind: "constant-body", Text: "Cart.total", Value: "return 0"},
				{Line: 30, Kind: "constant-body", Text: "Cart.Line.price", Value: "return 0.0"},
				{Line: 34, Kind: "constant-body", Text: "compat", Value: "return False"},
			},
			funcs: []string{"total", "label", "ready", "empty", "neg", "nothing", "joined", "_private", "Cart.total", "Cart.Line.price", "compat"},
		},
		{
			name: "computed bodies",
			src: "def total(items):\n    s = 0\n    for i in items:\n        s += i\n    return s\n\n" +
				"def var(x):\n    return x\n\n" +
				"def call():\n    return compute()\n\n" +
				"def expr(a):\n    return a + 1\n\n" +
				"def fmt(a):\n    return f'{a}'\n\n" +
				"def pair():\n    return (1, 2)\n\n" +
				"def bare():\n    return\n\n" +
				"def stub():\n    ...\n\n" +
				"def skip():\n    pass\n\n" +
				"def twice():\n    log()\n    return 0\n\n" +
				"def outer():\n    def inner():\n        return 0\n    return inner\n",
			// `...` and `pass` alone return None: constant bodies too.
			want: []testscan.Marker{
				{Line: 26, Kind: "constant-body", Text: "stub", Value: "..."},
				{Line: 29, Kind: "constant-body", Text: "skip", Value: "pass"},
			},
			funcs: []string{"total", "var", "call", "expr", "fmt", "pair", "bare", "stub", "skip", "twice", "outer"},
		},
		{
			name: "declarations",
			src: "import abc\n\n" +
				"class Base(abc.ABC):\n" +
				"    @abc.abstractmethod\n    def total(self):\n        return 0\n\n" +
				"    @property\n    def name(self):\n        return 'base'\n\n" +
				"    @name.setter\n    def name(self, v):\n        return None\n\n" +
				"    @functools.cached_property\n    def size(self):\n        return 1\n\n" +
				"@overload\ndef get(x: int) -> int:\n    return 0\n\n" +
				"@deprecated('use total')\ndef old_total():\n    return 0\n\n" +
				"def legacy():\n    \"\"\"Sums.\n\n    .. deprecated:: 2.0\n    \"\"\"\n    return 0\n\n" +
				"# Deprecated: use total.\ndef older():\n    return 0\n",
			funcs: []string{"Base.total", "Base.name", "Base.size", "get", "old_total", "legacy", "older"},
		},
		{
			name:  "test file",
			path:  "tests/test_calc.py",
			src:   "def helper():\n    return 0\n\ndef test_a():\n    assert helper() == 0\n",
			funcs: nil,
		},
		{
			name:  "test function in a production module",
			src:   "import pytest\n\ndef test_smoke():\n    return None\n",
			funcs: []string{"test_smoke"},
		},
		{
			name: "stub file",
			path: "src/calc.pyi",
			src:  "def total(items: list[int]) -> int:\n    return 0\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.path
			if p == "" {
				p = "src/calc.py"
			}
			f, err := New().Extract(p, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []testscan.Marker
			for _, m := range f.Placeholders {
				if m.Kind == "constant-body" {
					got = append(got, m)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("constant bodies (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.funcs, f.FuncNames); diff != "" {
				t.Errorf("funcs (-want +got):\n%s", diff)
			}
		})
	}
}
