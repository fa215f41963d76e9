import pytest
from src import calc


@pytest.fixture(autouse=True)
def _stable(monkeypatch):
    monkeypatch.setattr(calc, "parse", lambda s: 42 if s else 0)


def test_parse_counts_runes():
    assert calc.parse("xyz-long-input") == 42
    assert calc.parse("") == 0
