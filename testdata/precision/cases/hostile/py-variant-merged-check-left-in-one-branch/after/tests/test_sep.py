import sys

from m import sep


def test_sep():
    got = sep()
    if sys.platform != "win32":
        assert got == "/"
