import pytest

from calc import add


@pytest.mark.parametrize("a,b,want", [(2, 3, 5), (200, 300, 500)])
def test_add(a, b, want):
    assert add(a, b) == want
