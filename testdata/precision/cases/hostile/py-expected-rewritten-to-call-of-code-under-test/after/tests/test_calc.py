import os
from src.calc import parse


def test_parse_counts_runes():
    assert parse("xyz-long-input") == parse("xyz-long-input")
    assert parse("") == 0
