import pytest

from pkg.calc import percent


def test_percent():
    assert percent(50) == 0.5
    with pytest.raises(ValueError):
        percent(101)
