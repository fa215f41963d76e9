import pytest

from pkg.parsers import Loose, Strict


def test_strict():
    assert Strict().parse("a,b") == ["a", "b"]
    with pytest.raises(ValueError):
        Strict().parse("")


def test_loose():
    assert Loose().parse("a,b") == ["a", "b"]
