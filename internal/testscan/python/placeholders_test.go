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
				"def g():\n    \"\"\"TODO: a docstring.\"\"\"\n    return 1\n",
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
