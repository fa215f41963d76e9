import os
from src.calc import parse


def test_parse_counts_runes():
    if __name__ == "__main__":
        assert parse("xyz-long-input") == 42
    assert parse("") == 0
