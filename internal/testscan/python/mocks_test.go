package python

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

// TestMocks: the replacements a test runs with, their targets and literal
// answers, and whether a value check reads their answer (Subject), for
// AIWG's LP-014.
func TestMocks(t *testing.T) {
	src := `import pytest
from unittest import mock
from unittest.mock import patch
from pkg import calc
from pkg.calc import total


@pytest.fixture
def cheap(mocker):
    m = mocker.patch("pkg.shop.get_price")
    m.return_value = 20
    return m


@pytest.fixture(autouse=True)
def quiet(monkeypatch):
    monkeypatch.setattr(calc, "log", lambda *a: None)


@patch("pkg.calc.total", return_value=5)
def test_decorator(_m):
    assert calc.total([1, 2]) == 5


def test_object_local():
    with mock.patch.object(calc, "total", return_value=5):
        result = calc.total([1, 2])
    assert result == 5


def test_setattr(monkeypatch):
    monkeypatch.setattr(calc, "total", lambda *a: "five")
    assert total([1]) == "five"


def test_collaborator(cheap):
    assert calc.price_with_tax("tv") == 24


@patch("pkg.shop.fetch")
@patch("pkg.shop.get_rate")
def test_bound(rate, fetch):
    rate.return_value = 1.5
    fetch.return_value = {"a": [1, 2]}
    with patch("pkg.shop.other") as other:
        other.return_value = None
        assert calc.convert(2) == 3


def test_interaction(mocker):
    send = mocker.patch("pkg.mail.send", return_value=True)
    calc.notify("x")
    send.assert_called_once_with("x")


def test_other_get():
    with patch("pkg.db.get", return_value=1):
        assert cache.get("k") == 1


def test_new_not_literal():
    with patch("pkg.shop.clock", new=make_clock()), patch("pkg.shop.now", side_effect=lambda: f"{x}"):
        assert calc.stamp() == "t"
`
	f := scantest.Extract(t, New(), "tests/test_calc.py", src)
	quiet := testscan.Mock{Line: 17, Target: "calc.log", Name: "log"}
	want := map[string][]testscan.Mock{
		"test_decorator":       {{Line: 20, Target: "pkg.calc.total", Name: "total", Returns: "5", Subject: true}, quiet},
		"test_object_local":    {{Line: 26, Target: "calc.total", Name: "total", Returns: "5", Subject: true}, quiet},
		"test_setattr":         {{Line: 32, Target: "calc.total", Name: "total", Returns: `"five"`, Subject: true}, quiet},
		"test_collaborator":    {{Line: 10, Target: "pkg.shop.get_price", Name: "get_price", Returns: "20"}, quiet},
		"test_bound":           {{Line: 40, Target: "pkg.shop.fetch", Name: "fetch", Returns: `{"a":[1, 2]}`}, {Line: 41, Target: "pkg.shop.get_rate", Name: "get_rate", Returns: "1.5"}, {Line: 45, Target: "pkg.shop.other", Name: "other"}, quiet},
		"test_interaction":     {{Line: 51, Target: "pkg.mail.send", Name: "send", Returns: "True"}, quiet},
		"test_other_get":       {{Line: 57, Target: "pkg.db.get", Name: "get", Returns: "1"}, quiet},
		"test_new_not_literal": {{Line: 62, Target: "pkg.shop.clock", Name: "clock"}, {Line: 62, Target: "pkg.shop.now", Name: "now"}, quiet},
	}
	for _, tc := range f.Tests {
		if diff := cmp.Diff(want[tc.ID], tc.Mocks); diff != "" {
			t.Errorf("%s mocks (-want +got):\n%s", tc.ID, diff)
		}
	}
	if err := f.CheckMocks(62); err != nil {
		t.Error(err)
	}
}
