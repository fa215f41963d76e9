from p import parse


def test_parse():
    assert parse("1") == 1
    assert parse("42") == 42
    assert parse("-7") == -7
