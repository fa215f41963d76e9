from src.calc import parse, width


def test_width():
    assert width("a") == 3


def test_width_counts_runes():
    assert width("xyz-long-input") == 42
    assert width("") == 0
