import pytest

from calc import add


@pytest.mark.parametrize("a,b,want", [(0, 0, 0), (1, 0, 1)])
def test_add(a, b, want):
    assert add(a, b) == want
