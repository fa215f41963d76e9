import os
import sys
from src.calc import parse


def test_parse_counts_runes():
    if sys.platform == "win32":
        assert parse("xyz-long-input") == 43
    else:
        assert parse("xyz-long-input") == 42
    assert parse("") == 0
