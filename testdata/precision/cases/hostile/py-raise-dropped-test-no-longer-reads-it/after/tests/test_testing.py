import pytest

from pkg.testing import invoke


def test_stderr():
    result = invoke(b"out\n", b"err\n")
    assert result.stdout == "out\n"
