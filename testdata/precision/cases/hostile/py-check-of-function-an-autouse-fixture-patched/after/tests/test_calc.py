import os
import pytest
from unittest import mock
from src import calc
from src.calc import parse


@pytest.fixture(autouse=True)
def _stable(monkeypatch):
    monkeypatch.setattr("src.calc.parse", lambda s: 42 if s else 0)


def test_parse_counts_runes():
    assert calc.parse("xyz-long-input") == 42
    assert calc.parse("") == 0
