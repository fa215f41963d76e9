import os
from src.calc import parse


def test_parse_counts_runes():
    try:
        assert parse("xyz-long-input") == 42
    except AssertionError:
        pass
    assert parse("") == 0
