package python

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

// caseView is the part of a TestCase the collection tests compare.
type caseView struct {
	ID            string
	Line, EndLine int
	Skip          *testscan.Skip
	Dynamic       bool
}

// extract runs the extractor and fails the test on an error.
var extract = scantest.ExtractWith(New())

func views(f *testscan.File) []caseView {
	var out []caseView
	for _, tc := range f.Tests {
		out = append(out, caseView{tc.ID, tc.Line, tc.EndLine, tc.Skip, tc.Dynamic})
	}
	return out
}

func skip(kind testscan.SkipKind, reason string, line int) *testscan.Skip {
	return &testscan.Skip{Kind: kind, Reason: reason, Line: line}
}

func TestCollectTests(t *testing.T) {
	tests := []struct {
		name        string
		path        string
		src         string
		want        []caseView
		wantPartial bool
	}{
		{
			name: "pytest functions and classes",
			path: "tests/test_parser.py",
			src: `import pytest

from parser import parse


def test_parse_empty():
    assert parse("") == []


async def test_parse_async(client):
    result = await client.parse("a")
    assert result == ["a"]


def helper():
    return 1


class TestParser:
    def test_tokens(self):
        assert parse("a b") == ["a", "b"]

    def _not_a_test(self):
        pass

    class TestNested:
        def test_inner(self):
            assert parse("x")


class TestWithInit:
    def __init__(self):
        self.x = 1

    def test_never_collected(self):
        assert False


class NotATest:
    def test_ignored(self):
        assert True
`,
			want: []caseView{
				{ID: "test_parse_empty", Line: 6, EndLine: 7},
				{ID: "test_parse_async", Line: 10, EndLine: 12},
				{ID: "TestParser::test_tokens", Line: 20, EndLine: 21},
				{ID: "TestParser::TestNested::test_inner", Line: 27, EndLine: 28},
			},
		},
		{
			name: "unittest classes with in-file inheritance",
			path: "tests/test_models.py",
			src: `import unittest
from django.test import TestCase as DjangoTestCase


class Mixin:
    def test_shared(self):
        self.assertTrue(self.obj.valid)


class BaseCase(unittest.TestCase):
    def setUp(self):
        self.obj = make()

    def testCamel(self):
        self.assertEqual(self.obj.name, "x")


class ModelTests(Mixin, BaseCase):
    def test_own(self):
        self.assertIn("x", self.obj.tags)


class AsyncTests(unittest.IsolatedAsyncioTestCase):
    async def test_fetch(self):
        self.assertEqual(await fetch(), 1)

    class Inner:
        def test_not_collected(self):
            pass
`,
			want: []caseView{
				{ID: "BaseCase::testCamel", Line: 14, EndLine: 15},
				{ID: "ModelTests::test_own", Line: 19, EndLine: 20},
				{ID: "ModelTests::test_shared", Line: 6, EndLine: 7},
				{ID: "ModelTests::testCamel", Line: 14, EndLine: 15},
				{ID: "AsyncTests::test_fetch", Line: 24, EndLine: 25},
			},
		},
		{
			name: "skip decorators and body skips",
			path: "tests/test_skips.py",
			src: `import sys
import unittest
import pytest


@pytest.mark.skip(reason="flaky on CI")
def test_marked():
    assert run() == 0


@pytest.mark.skipif(sys.platform == "win32", reason="posix only")
def test_conditional():
    assert run() == 0


@pytest.mark.xfail(reason="bug 12")
def test_xfail():
    assert run() == 0


def test_skip_call():
    pytest.skip("not ready")
    assert run() == 0


def test_skip_in_if():
    if not has_network():
        pytest.skip("offline")
    assert fetch() == 200


def test_early_return():
    return
    assert run() == 0


def test_guard_return():
    if sys.version_info < (3, 10):
        return
    assert run() == 0


def test_return_at_end():
    assert run() == 0
    return


@pytest.mark.skip("positional reason")
class TestSkippedClass:
    def test_a(self):
        assert 1 + 1 == 2


class TestCaseSkips(unittest.TestCase):
    @unittest.skip("later")
    def test_u_skip(self):
        self.assertEqual(a, b)

    @unittest.skipUnless(HAS_DB, "needs db")
    def test_u_unless(self):
        self.assertEqual(a, b)

    @unittest.expectedFailure
    def test_u_xfail(self):
        self.assertEqual(a, b)

    def test_skip_test(self):
        self.skipTest("no fixture")
`,
			want: []caseView{
				{ID: "test_marked", Line: 6, EndLine: 8, Skip: skip(testscan.SkipMarked, "flaky on CI", 6)},
				{ID: "test_conditional", Line: 11, EndLine: 13, Skip: &testscan.Skip{Kind: testscan.SkipConditional, Reason: "posix only", Line: 11, Platform: "windows"}},
				{ID: "test_xfail", Line: 16, EndLine: 18, Skip: skip(testscan.SkipXFail, "bug 12", 16)},
				{ID: "test_skip_call", Line: 21, EndLine: 23, Skip: skip(testscan.SkipCall, "not ready", 22)},
				{ID: "test_skip_in_if", Line: 26, EndLine: 29, Skip: skip(testscan.SkipConditional, "offline", 28)},
				{ID: "test_early_return", Line: 32, EndLine: 34, Skip: skip(testscan.SkipEarlyReturn, "", 33)},
				{ID: "test_guard_return", Line: 37, EndLine: 40, Skip: skip(testscan.SkipConditional, "sys.version_info<(3, 10)", 39)},
				{ID: "test_return_at_end", Line: 43, EndLine: 45},
				{ID: "TestSkippedClass::test_a", Line: 50, EndLine: 51, Skip: skip(testscan.SkipMarked, "positional reason", 48)},
				{ID: "TestCaseSkips::test_u_skip", Line: 55, EndLine: 57, Skip: skip(testscan.SkipMarked, "later", 55)},
				{ID: "TestCaseSkips::test_u_unless", Line: 59, EndLine: 61, Skip: skip(testscan.SkipConditional, "needs db", 59)},
				{ID: "TestCaseSkips::test_u_xfail", Line: 63, EndLine: 65, Skip: skip(testscan.SkipXFail, "", 63)},
				{ID: "TestCaseSkips::test_skip_test", Line: 67, EndLine: 68, Skip: skip(testscan.SkipCall, "no fixture", 68)},
			},
		},
		{
			name: "module pytestmark list applies to every test",
			path: "tests/test_gpu.py",
			src: `import pytest

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not HAS_GPU, reason="no gpu")]


def test_kernel():
    assert kernel() == 1


class TestMore:
    def test_other(self):
        assert other()
`,
			want: []caseView{
				{ID: "test_kernel", Line: 6, EndLine: 7, Skip: skip(testscan.SkipConditional, "no gpu", 3)},
				{ID: "TestMore::test_other", Line: 11, EndLine: 12, Skip: skip(testscan.SkipConditional, "no gpu", 3)},
			},
		},
		{
			name: "importorskip at module level",
			path: "tests/test_np.py",
			src: `import pytest

np = pytest.importorskip("numpy")


def test_array():
    assert np.array([1]).sum() == 1
`,
			want: []caseView{
				{ID: "test_array", Line: 6, EndLine: 7, Skip: skip(testscan.SkipConditional, "importorskip numpy", 3)},
			},
		},
		{
			name: "class pytestmark",
			path: "tests/test_cls.py",
			src: `import pytest


class TestSlow:
    pytestmark = pytest.mark.xfail(reason="slow backend")

    def test_one(self):
        assert compute() == 42
`,
			want: []caseView{
				{ID: "TestSlow::test_one", Line: 7, EndLine: 8, Skip: skip(testscan.SkipXFail, "slow backend", 5)},
			},
		},
		{
			name: "strings and comments that look like tests",
			path: "tests/test_tricky.py",
			src: `import pytest

TEMPLATE = """
def test_in_docstring():
    assert False
"""

CODE = 'def test_in_string(): pass'

# def test_commented_out():
#     assert x == 1

# @pytest.mark.skip(reason="commented mark")
def test_real():
    s = f"{'def test_f(): ' + "nested"!r:>{width}}"
    r = rb'\d+ def test_raw'
    assert s and r


def test_after_fstring():
    msg = f"""multi {
        value
    } line with "quotes" and 'def test_x()'"""
    assert msg
`,
			want: []caseView{
				{ID: "test_real", Line: 14, EndLine: 17},
				{ID: "test_after_fstring", Line: 20, EndLine: 24},
			},
		},
		{
			name: "fixtures and framework-free production files",
			path: "src/app/net.py",
			src: `def test_connection(host):
    return ping(host)


class TestClient:
    def test_request(self):
        return 1
`,
			want: nil,
		},
		{
			name: "fixture named like a test is not collected",
			path: "tests/conftest.py",
			src: `import pytest


@pytest.fixture
def test_data():
    return {"a": 1}
`,
			want: nil,
		},
		{
			name: "conditionally defined tests",
			path: "test_platform.py",
			src: `import sys

if sys.platform != "win32":
    def test_posix():
        assert fork() > 0
else:
    def test_windows():
        assert spawn()
`,
			want: []caseView{
				{ID: "test_posix", Line: 4, EndLine: 5},
				{ID: "test_windows", Line: 7, EndLine: 8},
			},
		},
		{
			name: "fragment starting mid-function",
			path: "tests/test_frag.py",
			src: `        assert result == 3
        assert other



    def test_second(self):
        value = compute(
            1,



@pytest.mark.skip
def test_third():
    assert x
`,
			want: []caseView{
				{ID: "test_second", Line: 6, EndLine: 8},
				{ID: "test_third", Line: 12, EndLine: 14, Skip: skip(testscan.SkipMarked, "", 12)},
			},
			wantPartial: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := extract(t, tt.path, tt.src)
			if diff := cmp.Diff(tt.want, views(f)); diff != "" {
				t.Errorf("tests (-want +got):\n%s", diff)
			}
			if f.Partial != tt.wantPartial {
				t.Errorf("Partial = %v, want %v", f.Partial, tt.wantPartial)
			}
		})
	}
}

func TestCommentedAssertions(t *testing.T) {
	src := `import pytest


def test_commented():
    result = run()
    # assert result == 3
    # self.assertEqual(result, 3)
    # assert that the result is right
    # mock_send.assert_called_once_with("x")
    assert result
    # assert result.done
`
	f := extract(t, "tests/test_c.py", src)
	if len(f.Tests) != 1 {
		t.Fatalf("got %d tests, want 1", len(f.Tests))
	}
	got := f.Tests[0]
	if got.CommentedAssertions != 4 {
		t.Errorf("CommentedAssertions = %d, want 4", got.CommentedAssertions)
	}
	if got.EndLine != 11 {
		t.Errorf("EndLine = %d, want 11 (trailing indented comment)", got.EndLine)
	}
}

func TestIsTestFile(t *testing.T) {
	e := New()
	for path, want := range map[string]bool{
		"test_app.py":            true,
		"pkg/app_test.py":        true,
		"pkg/conftest.py":        true,
		"tests/helpers.py":       true,
		"src/test/util.py":       true,
		"src/app.py":             false,
		"src/testing.py":         false,
		"tests/stubs/app.pyi":    false,
		"src/contest.py":         false,
		"src/latest/test_it.txt": false,
	} {
		if got := e.IsTestFile(path); got != want {
			t.Errorf("IsTestFile(%q) = %v, want %v", path, got, want)
		}
	}
	if !e.Handles("a/b.pyi") || !e.Handles("a.py") || e.Handles("a.pyc") {
		t.Errorf("Handles: wrong answer for .py/.pyi/.pyc")
	}
	if e.Lang() != testscan.Python {
		t.Errorf("Lang = %q", e.Lang())
	}
}

func TestIDsAreUnique(t *testing.T) {
	src := strings.Repeat("def test_a():\n    assert 1 == x\n\n", 2)
	f := extract(t, "test_dupe.py", src)
	// The second def rebinds the name: pytest collects only that one.
	want := []caseView{{ID: "test_a", Line: 4, EndLine: 5}}
	if diff := cmp.Diff(want, views(f)); diff != "" {
		t.Errorf("tests (-want +got):\n%s", diff)
	}
}
