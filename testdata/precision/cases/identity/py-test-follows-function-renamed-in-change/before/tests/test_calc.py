from src.calc import parse, width


def test_parse_counts_runes():
    assert parse("xyz-long-input") == 42
    assert parse("") == 0


def test_width():
    assert width("a") == 3
