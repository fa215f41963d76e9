import pytest

from calc import add


@pytest.mark.parametrize("a,b,want", [(2, 3, 5), (200, 300, 500), (-1, 1, 0)], ids=["small", "big", "zero"])
def test_add(a, b, want):
    assert add(a, b) == want
