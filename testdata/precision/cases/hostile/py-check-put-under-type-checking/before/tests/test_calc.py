import os
from src.calc import parse


def test_parse_counts_runes():
    assert parse("xyz-long-input") == 42
    assert parse("") == 0
