import os

import pytest


@pytest.fixture
def db_url():
    url = os.environ.get("CALC_DB_URL")
    if not url:
        pytest.skip("CALC_DB_URL is not set")
    return url


@pytest.fixture(autouse=True)
def _utc(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    yield
