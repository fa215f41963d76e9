import pytest
from src import calc


def test_parse_counts_runes():
    assert calc.parse("xyz-long-input") == 42
    assert calc.parse("") == 0
