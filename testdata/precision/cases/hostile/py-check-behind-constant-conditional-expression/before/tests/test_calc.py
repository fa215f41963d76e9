import os
import unittest
from src.calc import parse


def test_parse_counts_runes():
    assert parse("xyz-long-input") == 42, "long input"
    assert parse("") == 0
