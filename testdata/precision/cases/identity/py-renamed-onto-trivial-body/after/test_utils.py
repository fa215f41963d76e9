import logging

import mylib


def test_logging_redirect_chain(server, caplog):
    caplog.set_level(logging.INFO)
    response = mylib.get(server.url + "/redirect_301", follow_redirects=True)
    assert response is not None
    assert caplog.record_tuples is not None
