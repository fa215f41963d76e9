import os
from src.calc import parse, reference_parse


def test_parse_counts_runes():
    assert parse("xyz-long-input") == reference_parse("xyz-long-input")
    assert parse("") == 0
