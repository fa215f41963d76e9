import pytest


def test_error_handling(app, client):
    rv = client.get("/forbidden")
    assert b"forbidden" == rv.data


def test_error_handler_unknown_code(app):
    with pytest.raises(KeyError) as exc_info:
        app.register_error_handler(999, lambda e: ("999", 999))

    assert "Use a subclass" in exc_info.value.args[0]


def test_error_handling_processing(app, client):
    rv = client.get("/")
    assert rv.status_code == 500
