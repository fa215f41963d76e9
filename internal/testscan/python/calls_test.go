package python

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
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
	f, err := New().Extract("tests/test_orders.py", []byte(src))
	if err != nil || f.Partial {
		t.Fatalf("extract: %v partial=%v", err, f.Partial)
	}
	calls := map[string][]testscan.Call{}
	for _, tc := range f.Tests {
		calls[tc.ID] = tc.Calls
	}
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
	if diff := cmp.Diff(want, calls); diff != "" {
		t.Errorf("test calls (-want +got):\n%s", diff)
	}
	wantHelpers := map[string][]testscan.Call{
		"db":          {site("settings", 1), site("connect", 1), site("seed", 1), site(".close", 1)},
		"order":       {site("db", 1), site("make_order", 1)},
		"check_order": {site("audit", 1)},
		"setUp":       {site("open_db", 1)},
		"_check":      {site(".valid", 1)},
	}
	if diff := cmp.Diff(wantHelpers, f.HelperCalls); diff != "" {
		t.Errorf("helper calls (-want +got):\n%s", diff)
	}
	checkCalls(t, f)
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
	var b strings.Builder
	b.WriteString("def test_many():\n")
	for i := range testscan.MaxCalls + 10 {
		b.WriteString("    f" + strconv.Itoa(i) + "()\n")
	}
	b.WriteString("    f0()\n")
	f, err := New().Extract("tests/test_many.py", []byte(b.String()))
	if err != nil || len(f.Tests) != 1 {
		t.Fatalf("extract: %v, %d tests", err, len(f.Tests))
	}
	calls := f.Tests[0].Calls
	if len(calls) != testscan.MaxCalls || !reflect.DeepEqual(calls[0], site("f0", 2)) {
		t.Errorf("got %d calls, first %+v; want %d, f0 twice", len(calls), calls[0], testscan.MaxCalls)
	}
}

func site(name string, sites int) testscan.Call {
	return testscan.Call{Name: name, Sites: sites}
}

// checkCalls fails t when f's calls break their invariants.
func checkCalls(t *testing.T, f *testscan.File) {
	t.Helper()
	if err := f.CheckCalls(); err != nil {
		t.Fatal(err)
	}
}
