import pytest

from calc import add


@pytest.fixture
def neg():
    return -2


def test_add():
    assert add(2, 2) == 4


def test_add_neg(neg):
    assert add(neg, neg) == -4
