import pytest

import mylib


def test_server_name_subdomain(app):
    client = app.test_client()

    # suppress the warning about name mismatch
    with pytest.warns(None):
        rv = client.get("/", "http://foo.localhost")
        assert rv.status_code == 404
