import pytest


@pytest.fixture(autouse=True)
def _offline(monkeypatch):
    monkeypatch.setattr("requests.get", lambda *a, **k: None)
