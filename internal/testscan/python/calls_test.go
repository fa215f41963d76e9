package python

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

// TestCalls: a test's calls are the fixtures it requests and the functions
// and methods its body calls, with their call sites; assertions, builtins,
// names imported from other modules than test helpers, methods of literals
// and TestCase's own methods are left out, and strings, comments, docstrings
// and f-strings call nothing. Helpers' calls are filed by helper, a
// fixture's own requested fixtures first.
func TestCalls(t *testing.T) {
	src := `import os
import json
import numpy as np
import pytest
import unittest
from unittest import mock

from app.models import User, create_user
from tests.helpers import make_order
from . import factories


@pytest.fixture
def db(tmp_path, settings):
    conn = connect(os.path.join(tmp_path, "test.db"))
    seed(conn)
    yield conn
    assert conn.closed is False
    conn.close()


@pytest.fixture
def order(db):
    return make_order(db, total=10)


def check_order(o, expected):
    """Fails unless o is paid: check_order(o) is not called here."""
    assert o.total == expected
    assert o.paid
    audit(o)


@pytest.mark.usefixtures("clean_env")
@pytest.mark.parametrize("total, expected", [(10, "10.00"), (0, "0.00")])
def test_total(order, total, expected, retries=3, *args, **kwargs):
    """Calls render(order) in a docstring."""
    # helper(order) in a comment
    o = create_user("x")  # User(...) is imported, too
    text = f"{order} and render(order) in an f-string"
    raw = "check_order(o) in a string"
    payload = json.dumps({"t": total})
    arr = np.array([1, 2]).sum()
    name = "".join(["a", "b"]) + "{}".format(total)
    check_order(order, expected)
    check_order(order, expected)
    factories.refund(order)
    order.pay(amount=total)
    assert len(order.items) == int(total) / 10
    assert order.total == pytest.approx(10.0)
    with pytest.raises(ValueError):
        order.pay(amount=-1)
    assert_paid(order)
    print(str(order), isinstance(order, User))
    if not (order.paid or total):
        return
    match (total, expected):
        case (0, _):
            pass

    def inner():
        return recompute(order)

    inner()


class TestOrders(unittest.TestCase):
    def setUp(self):
        self.db = open_db()
        self.addCleanup(self.db.close)

    def _check(self, o):
        self.assertTrue(o.valid())

    def test_refund(self):
        with self.subTest("full"):
            o = make_order(self.db)
            self.assertEqual(o.refund(), 10)
        self._check(o)
        self._check(o)
        self.skipTest("later")
        mock_db = mock.Mock()
        mock_db.save.assert_called_once_with(o)
        super().tearDown()
`
	body := []testscan.Call{
		site("order", 1), site("clean_env", 1), // fixtures first
		site(".sum", 1), site("check_order", 2), site(".refund", 1), site(".pay", 2),
		site("recompute", 1), site("inner", 1),
	}
	want := map[string][]testscan.Call{
		"test_total[10-10.00]": body,
		"test_total[0-0.00]":   body,
		"TestOrders::test_refund": {
			site("make_order", 1), site(".refund", 1), site("._check", 2), site(".tearDown", 1),
		},
	}
	wantHelpers := map[string][]testscan.Call{
		"db":          {site("settings", 1), site("connect", 1), site("seed", 1), site(".close", 1)},
		"order":       {site("db", 1), site("make_order", 1)},
		"check_order": {site("audit", 1)},
		"setUp":       {site("open_db", 1)},
		"_check":      {site(".valid", 1)},
	}
	f := scantest.Calls(t, New(), "tests/test_orders.py", src, want, wantHelpers)
	scantest.CheckCalls(t, f)
}

// TestCallsMerged: helpers sharing a name (the setUp of two classes) have
// their calls merged; a helper that calls nothing has no entry; a module that
// imports nothing keeps every call.
func TestCallsMerged(t *testing.T) {
	src := `class TestA:
    def setUp(self):
        start()

    def test_a(self, conn):
        conn.ping()


class TestB:
    def setUp(self):
        start()
        stop()

    def idle(self):
        pass
`
	f, err := New().Extract("tests/test_ab.py", []byte(src))
	if err != nil || len(f.Tests) != 1 {
		t.Fatalf("extract: %v, %d tests", err, len(f.Tests))
	}
	if diff := cmp.Diff([]testscan.Call{site("conn", 1), site(".ping", 1)}, f.Tests[0].Calls); diff != "" {
		t.Errorf("test calls (-want +got):\n%s", diff)
	}
	want := map[string][]testscan.Call{"setUp": {site("start", 2), site("stop", 1)}}
	if diff := cmp.Diff(want, f.HelperCalls); diff != "" {
		t.Errorf("helper calls (-want +got):\n%s", diff)
	}
}

// TestCallsBounded: a test that calls many functions keeps the first
// MaxCalls names and still counts the sites of those it kept.
func TestCallsBounded(t *testing.T) {
	src := "def test_many():\n" + scantest.ManyCalls("    f%d()\n")
	scantest.CallsBounded(t, New(), "tests/test_many.py", src, "f0")
}

// site is a call of name at sites places.
var site = scantest.Site
