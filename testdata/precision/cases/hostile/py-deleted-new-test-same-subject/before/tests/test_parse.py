from m import parse


def test_parse():
    result = parse("5")
    assert result == 5
