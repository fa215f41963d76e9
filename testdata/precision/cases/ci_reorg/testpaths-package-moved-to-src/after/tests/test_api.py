import mylib


def test_get():
    assert mylib.get("u") == "u"
