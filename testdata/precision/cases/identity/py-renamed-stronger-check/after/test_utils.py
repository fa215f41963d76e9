import logging

import mylib


def test_logging_redirect_chain(server, caplog):
    caplog.set_level(logging.INFO)
    response = mylib.get(server.url + "/redirect_301", follow_redirects=True)
    assert response.status_code == 200

    assert caplog.record_tuples == [
        ("mylib", logging.INFO, 'HTTP Request: GET /redirect_301 "301 Moved Permanently"'),
        ("mylib", logging.INFO, 'HTTP Request: GET / "200 OK"'),
    ]
