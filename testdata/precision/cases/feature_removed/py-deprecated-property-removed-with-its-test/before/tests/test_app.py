import pytest

from web.app import App


def test_get_env():
    app = App("development")
    with pytest.deprecated_call():
        assert app.env == "development"


def test_route():
    app = App()
    assert app.route("/x") == "/x"
    assert app.rules == ["/x"]
