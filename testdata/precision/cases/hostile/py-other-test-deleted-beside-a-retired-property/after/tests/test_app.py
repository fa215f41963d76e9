import pytest

from web.app import App


def test_get_env():
    app = App("development")
    assert app.config["ENV"] == "development"
