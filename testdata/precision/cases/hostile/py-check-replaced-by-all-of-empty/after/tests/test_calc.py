import os
import unittest
from src.calc import parse


def test_parse_counts_runes():
    assert all([])
    assert parse("") == 0
