from calc import add


def test_add():
    assert add(2, 2) == 4


def test_add_neg():
    assert add(-2, -2) == -4
