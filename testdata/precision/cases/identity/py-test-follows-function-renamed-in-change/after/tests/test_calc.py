from src.calc import count_runes, width


def test_width():
    assert width("a") == 3


def test_count_runes_of_long_input():
    assert count_runes("xyz-long-input") == 42
    assert count_runes("") == 0
