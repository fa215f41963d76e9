import pytest


def test_error_handling(app, client):
    rv = client.get("/forbidden")
    assert b"forbidden" == rv.data


def test_error_handling_processing(app, client):
    rv = client.get("/")
    assert rv.status_code == 500
