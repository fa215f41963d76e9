import os
from src.calc import parse


def test_parse_counts_runes():
    expected = parse("xyz-long-input")
    assert parse("xyz-long-input") == expected
    assert parse("") == 0
