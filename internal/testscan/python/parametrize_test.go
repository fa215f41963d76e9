package python

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestParametrizeIDs(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []caseView
	}{
		{
			name: "single argname with scalar literals",
			src: `import pytest

@pytest.mark.parametrize("value", [1, -2, 3.0, 1e20, 0x10, "a b", "tab\there", "é", b"raw", None, True, 2j])
def test_scalar(value):
    assert check(value)
`,
			want: expand("test_scalar", 3, 5, nil, "1", "-2", "3.0", "1e+20", "16", "a b", `tab\there`, `\xe9`, "raw", "None", "True", "2j"),
		},
		{
			name: "tuple rows, pytest.param ids and marks, display values",
			src: `import pytest

@pytest.mark.parametrize(
    ("left", "right"),
    [
        (1, 2),
        pytest.param(3, 4, id="three-four"),
        pytest.param(5, 6, marks=pytest.mark.xfail(reason="overflow")),
        ([1, 2], {"k": 1}),
        (int, ValueError),
        (lambda x: x, "λ"),
    ],
)
def test_pairs(left, right):
    assert combine(left, right)
`,
			want: []caseView{
				{ID: "test_pairs[1-2]", Line: 3, EndLine: 15},
				{ID: "test_pairs[three-four]", Line: 3, EndLine: 15},
				{ID: "test_pairs[5-6]", Line: 3, EndLine: 15, Skip: skip(testscan.SkipXFail, "overflow", 8)},
				{ID: "test_pairs[left3-right3]", Line: 3, EndLine: 15},
				{ID: "test_pairs[int-ValueError]", Line: 3, EndLine: 15},
				{ID: "test_pairs[<lambda>-\\u03bb]", Line: 3, EndLine: 15},
			},
		},
		{
			name: "ids list overrides, None falls back",
			src: `import pytest

@pytest.mark.parametrize("a,b", [(1, 2), (3, 4), (5, 6)], ids=["small", None, "big"])
def test_ids(a, b):
    assert a < b
`,
			want: expand("test_ids", 3, 5, nil, "small", "3-4", "big"),
		},
		{
			name: "stacked decorators: the bottom one varies slowest and comes first",
			src: `import pytest

@pytest.mark.parametrize("x", [0, 1])
@pytest.mark.parametrize("y", [2, 3])
def test_foo(x, y):
    assert x < y
`,
			want: expand("test_foo", 3, 6, nil, "2-0", "2-1", "3-0", "3-1"),
		},
		{
			name: "duplicates get counters",
			src: `import pytest

@pytest.mark.parametrize("v", ["a", "a", 1, 1.0, "1"])
def test_dup(v):
    assert v
`,
			want: expand("test_dup", 3, 5, nil, "a0", "a1", "1_0", "1.0", "1_1"),
		},
		{
			name: "empty table is one skipped case",
			src: `import pytest

@pytest.mark.parametrize("a,b", [])
def test_empty(a, b):
    assert a
`,
			want: []caseView{{ID: "test_empty[a0-b0]", Line: 3, EndLine: 5, Skip: skip(testscan.SkipMarked, "got empty parameter set", 3)}},
		},
		{
			name: "non-literal values are dynamic",
			src: `import pytest

@pytest.mark.parametrize("case", load_cases())
def test_loaded(case):
    assert case.ok

@pytest.mark.parametrize("v", [make(1), make(2)])
def test_calls(v):
    assert v

@pytest.mark.parametrize("v", [1, 2], ids=str)
def test_idfn(v):
    assert v
`,
			want: []caseView{
				{ID: "test_loaded[*]", Line: 3, EndLine: 5, Dynamic: true},
				{ID: "test_calls[*]", Line: 7, EndLine: 9, Dynamic: true},
				{ID: "test_idfn[*]", Line: 11, EndLine: 13, Dynamic: true},
			},
		},
		{
			name: "class parametrize applies after the method's own",
			src: `import pytest

@pytest.mark.parametrize("backend", ["sqlite", "pg"])
class TestStore:
    @pytest.mark.parametrize("n", [1, 2])
    def test_put(self, backend, n):
        assert put(backend, n)
`,
			want: []caseView{
				{ID: "TestStore::test_put[1-sqlite]", Line: 5, EndLine: 7},
				{ID: "TestStore::test_put[1-pg]", Line: 5, EndLine: 7},
				{ID: "TestStore::test_put[2-sqlite]", Line: 5, EndLine: 7},
				{ID: "TestStore::test_put[2-pg]", Line: 5, EndLine: 7},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := extract(t, "tests/test_params.py", tt.src)
			if diff := cmp.Diff(tt.want, views(f)); diff != "" {
				t.Errorf("tests (-want +got):\n%s", diff)
			}
		})
	}
}

// expand builds the views of a parametrized test's cases.
func expand(name string, line, end int, sk *testscan.Skip, ids ...string) []caseView {
	var out []caseView
	for _, id := range ids {
		out = append(out, caseView{ID: name + "[" + id + "]", Line: line, EndLine: end, Skip: sk})
	}
	return out
}

func TestParametrizeParams(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want map[string][]map[string]string
	}{
		{
			name: "stacked marks join their rows; a reassigned argument is left out",
			src: `import pytest

@pytest.mark.parametrize("default", [True, False])
@pytest.mark.parametrize(("args", "expect"), [(["--on"], True), ([], None)])
def test_switch(default, args, expect):
    if expect is None:
        expect = default
    assert switch(args, default) is expect
`,
			want: map[string][]map[string]string{
				"test_switch[args0-True-True]":  {{"args": `["--on"]`, "default": "True"}},
				"test_switch[args0-True-False]": {{"args": `["--on"]`, "default": "False"}},
				"test_switch[args1-None-True]":  {{"args": "[]", "default": "True"}},
				"test_switch[args1-None-False]": {{"args": "[]", "default": "False"}},
			},
		},
		{
			name: "a dynamic table keeps every row",
			src: `import pytest

@pytest.mark.parametrize(("v", "want"), [(1, "a"), (UNSET, 'b')])
def test_dyn(v, want):
    assert f(v) == want
`,
			want: map[string][]map[string]string{
				"test_dyn[*]": {{"v": "1", "want": `"a"`}, {"v": "UNSET", "want": `"b"`}},
			},
		},
		{
			name: "computed ids: the ids are dynamic, the rows known",
			src: `import pytest

@pytest.mark.parametrize("name", ["a", "b"], ids=lambda v: v.upper())
def test_named(name):
    assert name
`,
			want: map[string][]map[string]string{
				"test_named[*]": {{"name": `"a"`}, {"name": `"b"`}},
			},
		},
		{
			name: "an unreadable table has no rows; a plain test none",
			src: `import pytest

@pytest.mark.parametrize("case", load_cases())
def test_loaded(case):
    assert case.ok

def test_plain():
    assert 1
`,
			want: map[string][]map[string]string{"test_loaded[*]": nil, "test_plain": nil},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := extract(t, "tests/test_params.py", tt.src)
			got := map[string][]map[string]string{}
			for _, c := range f.Tests {
				got[c.ID] = c.Params
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("params (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAssignedNames(t *testing.T) {
	toks, _, _ := lex(`def test_x(a, b, c, d, e, g, h, k, v):
    a = 1
    b += 2
    for c, k2 in items:
        pass
    with open(d) as e:
        pass
    g.attr = 3
    h[0] = 4
    f(k=5)
    assert a == b and v != 0
`)
	root, _ := buildTree(toks)
	got := assignedNames(root.body[0].body)
	want := map[string]bool{"a": true, "b": true, "c": true, "k2": true, "e": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("assigned names (-want +got):\n%s", diff)
	}
}

func TestMarks(t *testing.T) {
	f := extract(t, "tests/test_marks.py", `import pytest

pytestmark = [pytest.mark.net]


@pytest.mark.stress
@pytest.mark.timeout(5)
def test_a():
    assert 1


@pytest.mark.slow
class TestB:
    pytestmark = pytest.mark.db

    @pytest.mark.parametrize("v", [1, pytest.param(2, marks=pytest.mark.heavy)])
    def test_c(self, v):
        assert v
`)
	got := map[string][]string{}
	for _, c := range f.Tests {
		got[c.ID] = c.Marks
	}
	want := map[string][]string{
		"test_a":           {"stress", "timeout", "net"},
		"TestB::test_c[1]": {"parametrize", "net", "slow", "db"},
		"TestB::test_c[2]": {"parametrize", "net", "slow", "db", "heavy"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("marks (-want +got):\n%s", diff)
	}
}
