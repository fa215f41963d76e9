import warnings

import mylib


def test_server_name_subdomain(app):
    client = app.test_client()

    # suppress the warning about name mismatch
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Current server name", UserWarning, "mylib.app")
        rv = client.get("/", "http://foo.localhost")
        assert rv.status_code == 404
