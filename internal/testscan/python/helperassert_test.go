package python

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

func TestHelperAssertions(t *testing.T) {
	at := func(line int, kind string, s testscan.Strength, neg bool, subject, expected string) testscan.Assertion {
		return testscan.Assertion{Line: line, Kind: kind, Strength: s, Negated: neg, Subject: subject, Expected: expected}
	}
	tests := []struct {
		name        string
		path        string
		src         string
		wantHelpers []testscan.Assertion
		wantTests   map[string][]testscan.Assertion
	}{
		{
			name: "module-level helper and fixture called by two tests",
			path: "tests/test_api.py",
			src: `import pytest

from app import create_app


def assert_valid(resp):
    assert resp.status_code == 200
    assert "error" not in resp.json()


@pytest.fixture
def client():
    app = create_app()
    assert app is not None
    return app.test_client()


def test_index(client):
    resp = client.get("/")
    assert_valid(resp)
    assert resp.json()["page"] == "index"


def test_health(client):
    assert_valid(client.get("/health"))
`,
			wantHelpers: []testscan.Assertion{
				at(7, "assert ==", strong, false, "resp.status_code", "200"),
				at(8, "assert not in", medium, true, `"error"`, "resp.json()"),
				at(14, "assert is not None", weak, true, "app", ""),
			},
			wantTests: map[string][]testscan.Assertion{
				"test_index": {
					at(20, "assert_valid", medium, false, "resp", ""),
					at(21, "assert ==", strong, false, `resp.json()["page"]`, `"index"`),
				},
				"test_health": {at(25, "assert_valid", medium, false, `client.get("/health")`, "")},
			},
		},
		{
			name: "unittest setUp, tearDown and check method",
			path: "tests/test_store.py",
			src: `import unittest


class StoreTests(unittest.TestCase):
    def setUp(self):
        self.store = Store()
        self.assertTrue(self.store.empty)

    def tearDown(self):
        self.store.close()
        self.assertIsNone(self.store.conn)

    def check(self, key, want):
        self.assertEqual(self.store.get(key), want)

    def test_put(self):
        self.store.put("a", 1)
        self.check("a", 1)

    def test_overwrite(self):
        self.store.put("a", 1)
        self.store.put("a", 2)
        self.check("a", 2)
        self.assertEqual(len(self.store), 1)
`,
			wantHelpers: []testscan.Assertion{
				at(7, "assertTrue", medium, false, "self.store.empty", ""),
				at(11, "assertIsNone", medium, false, "self.store.conn", ""),
				at(14, "assertEqual", strong, false, "self.store.get(key)", "want"),
			},
			wantTests: map[string][]testscan.Assertion{
				"StoreTests::test_put":       nil,
				"StoreTests::test_overwrite": {at(24, "assertEqual", strong, false, "len(self.store)", "1")},
			},
		},
		{
			name: "nested defs follow their enclosing function",
			path: "tests/test_nested.py",
			src: `import pytest

assert CONFIG is not None


def make_checker(limit):
    def checker(x):
        assert x < limit
    return checker


def test_inner_helper():
    def local(v):
        assert v == 1
    local(1)


class NotCollected:
    def test_looks_like_a_test(self):
        assert self.value


class TestWithInit:
    def __init__(self):
        assert False
`,
			wantHelpers: []testscan.Assertion{
				at(8, "assert <", medium, false, "x", "limit"),
				at(20, "assert", weak, false, "self.value", ""),
				at(25, "assert False", strong, false, "False", ""),
			},
			wantTests: map[string][]testscan.Assertion{
				"test_inner_helper": {at(14, "assert ==", strong, false, "v", "1")},
			},
		},
		{
			name: "parametrized test and inherited test method are not helpers",
			path: "tests/test_inherit.py",
			src: `import pytest
import unittest


class Shared:
    def test_shared(self):
        self.assertEqual(self.value, 3)

    def helper(self):
        self.assertGreater(self.value, 0)


class ConcreteTests(Shared, unittest.TestCase):
    value = 3


@pytest.mark.parametrize("n", [1, 2])
def test_positive(n):
    assert n > 0
`,
			wantHelpers: []testscan.Assertion{
				at(10, "assertGreater", medium, false, "self.value", "0"),
			},
			wantTests: map[string][]testscan.Assertion{
				"ConcreteTests::test_shared": {at(7, "assertEqual", strong, false, "self.value", "3")},
				"test_positive[1]":           {at(19, "assert >", medium, false, "n", "0")},
				"test_positive[2]":           {at(19, "assert >", medium, false, "n", "0")},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := extract(t, tt.path, tt.src)
			if diff := cmp.Diff(tt.wantHelpers, f.HelperAssertions, scantest.IgnoreHelperName, ignoreArms); diff != "" {
				t.Errorf("HelperAssertions (-want +got):\n%s", diff)
			}
			got := map[string][]testscan.Assertion{}
			for _, tc := range f.Tests {
				got[tc.ID] = tc.Assertions
			}
			if diff := cmp.Diff(tt.wantTests, got, ignoreArms); diff != "" {
				t.Errorf("test assertions (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHelperAssertionsInStubs(t *testing.T) {
	f := extract(t, "app/api.pyi", "def check(x: int) -> None:\n    assert x\n")
	if len(f.HelperAssertions) != 0 {
		t.Errorf("stub HelperAssertions = %+v, want none", f.HelperAssertions)
	}
}
