import pytest

import mylib


def test_server_name_subdomain(app):
    client = app.test_client()

    # the name mismatch must warn
    with pytest.warns(UserWarning, match="Current server name"):
        rv = client.get("/", "http://foo.localhost")
        assert rv.status_code == 404
