package python

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestSuppressions(t *testing.T) {
	src := `# flake8: noqa
# mypy: ignore-errors
import os  # noqa
import sys  # NOQA:E401, F401 unused here
from typing import Any  # type: ignore[import-untyped, attr-defined]  # noqa: E501
from contextlib import suppress
import contextlib

SQL = "select 1  # noqa"  # a string is not a directive


def load(path):  # pragma: no cover
    try:
        return open(path).read()
    except:
        pass
    try:
        os.remove(path)
    except (OSError, ValueError) as exc:
        ...
    try:
        os.remove(path)
    except OSError:
        log(path)
    with suppress(FileNotFoundError):
        os.remove(path)
    with contextlib.suppress(Exception):
        os.rmdir(path)


def broken():  # pylint: disable=too-many-branches, invalid-name
    return x.y  # pyright: ignore[reportAttributeAccessIssue]
`
	want := []testscan.Marker{
		{Line: 1, Kind: "noqa", Text: "flake8: noqa"},
		{Line: 2, Kind: "type-ignore", Text: "mypy: ignore-errors"},
		{Line: 3, Kind: "noqa", Text: "noqa"},
		{Line: 4, Kind: "noqa", Text: "noqa: E401,F401"},
		{Line: 5, Kind: "type-ignore", Text: "type: ignore[import-untyped,attr-defined]"},
		{Line: 5, Kind: "noqa", Text: "noqa: E501"},
		{Line: 12, Kind: "coverage-ignore", Text: "pragma: no cover"},
		{Line: 15, Kind: "except-pass", Text: "except"},
		{Line: 19, Kind: "except-pass", Text: "except (OSError, ValueError)"},
		{Line: 25, Kind: "swallowed-error", Text: "suppress(FileNotFoundError)"},
		{Line: 27, Kind: "swallowed-error", Text: "suppress(Exception)"},
		{Line: 31, Kind: "noqa", Text: "pylint: disable=too-many-branches,invalid-name"},
		{Line: 32, Kind: "type-ignore", Text: "pyright: ignore[reportAttributeAccessIssue]"},
	}
	f := extract(t, "src/loader.py", src)
	if diff := cmp.Diff(want, f.Suppressions); diff != "" {
		t.Errorf("suppressions (-want +got):\n%s", diff)
	}
}

func TestBypasses(t *testing.T) {
	tests := []struct {
		name string
		path string
		src  string
		want []testscan.Marker
	}{
		{
			name: "conftest exits anywhere",
			path: "tests/conftest.py",
			src: `import os
import sys


def pytest_sessionfinish(session, exitstatus):
    session.exitstatus = 0
    os._exit(0)


def helper():
    sys.exit()


def fail_hard():
    sys.exit(1)
`,
			want: []testscan.Marker{
				{Line: 7, Kind: "forced-exit", Text: "os._exit(0)"},
				{Line: 11, Kind: "forced-exit", Text: "sys.exit()"},
			},
		},
		{
			name: "hooks in a plugin module",
			path: "src/plugin.py",
			src: `import pytest


def pytest_runtest_makereport(item, call):
    raise SystemExit(0)


def pytest_collection_finish(session):
    pytest.exit("done", returncode=0)


def main():
    raise SystemExit(0)
`,
			want: []testscan.Marker{
				{Line: 5, Kind: "forced-exit", Text: "raise SystemExit(0)"},
				{Line: 9, Kind: "forced-exit", Text: `pytest.exit("done", returncode=0)`},
			},
		},
		{
			name: "module level of a test file, but not the main guard",
			path: "tests/test_cli.py",
			src: `import sys

exit(0)


def test_cli():
    assert main() == 0


if __name__ == "__main__":
    sys.exit(0)
`,
			want: []testscan.Marker{{Line: 3, Kind: "forced-exit", Text: "exit(0)"}},
		},
		{
			name: "inside a test: the process or the session ended with success, not a failing SystemExit",
			path: "tests/test_calc.py",
			src: `import os
import sys

import pytest


def test_leaves():
    assert add(2, 2) == 4
    os._exit(0)


def test_stops():
    if True:
        pytest.exit("done", returncode=0)


def test_fails():
    sys.exit(0)


def test_raises():
    raise SystemExit(0)
`,
			want: []testscan.Marker{
				{Line: 9, Kind: "forced-exit", Text: "os._exit(0)"},
				{Line: 14, Kind: "forced-exit", Text: `pytest.exit("done", returncode=0)`},
			},
		},
		{
			name: "production code may exit",
			path: "src/cli.py",
			src: `import sys

def main():
    sys.exit(0)

msg = "sys.exit(0)"
`,
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := extract(t, tt.path, tt.src)
			if diff := cmp.Diff(tt.want, f.Bypasses); diff != "" {
				t.Errorf("bypasses (-want +got):\n%s", diff)
			}
		})
	}
}

func TestExports(t *testing.T) {
	tests := []struct {
		name string
		path string
		src  string
		want []testscan.Symbol
	}{
		{
			name: "public defs, classes and methods",
			path: "src/shop/cart.py",
			src: `import os

TAX = 0.2


def total(items):
    return sum(items)


async def fetch_prices():
    return {}


def _private():
    pass


class Cart:
    def __init__(self):
        self.items = []

    def add(self, item):
        self.items.append(item)

    @property
    def size(self):
        return len(self.items)

    def _check(self):
        pass


class _Hidden:
    def visible(self):
        pass
`,
			want: []testscan.Symbol{
				{Name: "total", Kind: "func", Line: 6},
				{Name: "fetch_prices", Kind: "func", Line: 10},
				{Name: "Cart", Kind: "class", Line: 18},
				{Name: "Cart.add", Kind: "method", Line: 22},
				{Name: "Cart.size", Kind: "method", Line: 26},
			},
		},
		{
			name: "literal __all__ wins",
			path: "src/shop/__init__.py",
			src: `from .cart import Cart, total

__all__ = ["Cart", "total", "VERSION"]
__all__ += ["helper"]

VERSION = "1.0"


def helper():
    pass


def other():
    pass
`,
			want: []testscan.Symbol{
				{Name: "Cart", Kind: "var", Line: 3},
				{Name: "total", Kind: "var", Line: 3},
				{Name: "VERSION", Kind: "var", Line: 3},
				{Name: "helper", Kind: "func", Line: 9},
			},
		},
		{
			name: "stub file",
			path: "src/shop/cart.pyi",
			src: `def total(items: list[int]) -> int: ...
class Cart:
    def add(self, item: int) -> None: ...
`,
			want: []testscan.Symbol{
				{Name: "total", Kind: "func", Line: 1},
				{Name: "Cart", Kind: "class", Line: 2},
				{Name: "Cart.add", Kind: "method", Line: 3},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := extract(t, tt.path, tt.src)
			if diff := cmp.Diff(tt.want, f.Exports); diff != "" {
				t.Errorf("exports (-want +got):\n%s", diff)
			}
		})
	}
}

func TestComparisons(t *testing.T) {
	src := `def price(user, qty):
    if user.email == "test@example.com":
        return 0
    if qty != 0 and 42 == qty:
        return 1
    elif user.tier in ("gold", "platinum", ""):
        return 2
    while state not in ["done", -1, 7]:
        state = step()
    if x + 5 == y or name == "a" "b":
        pass
    if __name__ == "__main__":
        pass
    match command:
        case "quit" | "exit":
            return None
        case 404:
            return None
        case Point(x=0):
            return None
        case str(s) if s == "magic":
            return None
    label = "x" if mode == "ignored" else "y"
`
	want := []testscan.Marker{
		{Line: 2, Kind: "literal", Text: `"test@example.com"`, Value: "0"},
		{Line: 4, Kind: "literal", Text: "42", Value: "1"},
		{Line: 6, Kind: "literal", Text: `"gold"`, Value: "2"},
		{Line: 6, Kind: "literal", Text: `"platinum"`, Value: "2"},
		{Line: 8, Kind: "literal", Text: `"done"`},
		{Line: 8, Kind: "literal", Text: "7"},
		{Line: 10, Kind: "literal", Text: `"ab"`},
		{Line: 15, Kind: "literal", Text: `"quit"`},
		{Line: 15, Kind: "literal", Text: `"exit"`},
		{Line: 17, Kind: "literal", Text: "404"},
		{Line: 21, Kind: "literal", Text: `"magic"`},
	}
	f := extract(t, "src/pricing.py", src)
	if diff := cmp.Diff(want, f.Comparisons); diff != "" {
		t.Errorf("comparisons (-want +got):\n%s", diff)
	}
}
