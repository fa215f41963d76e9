from pkg.parsers import Loose, Strict


def test_strict():
    assert Strict().parse("a,b") == ["a", "b"]


def test_loose():
    assert Loose().parse("a,b") == ["a", "b"]
    assert Loose().parse("") == []
