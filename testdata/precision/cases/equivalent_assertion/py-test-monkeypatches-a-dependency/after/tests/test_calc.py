import os
import pytest
from unittest import mock
from src import calc
from src.calc import parse


def test_parse_counts_runes(monkeypatch):
    monkeypatch.setattr(os, "getenv", lambda k, d=None: "1")
    assert parse("xyz-long-input") == 42
    assert parse("") == 0
