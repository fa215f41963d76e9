import mylib


def test_logs_redirect_chain(server, capsys):
    with mylib.log_level("debug"):
        response = mylib.get(server.url + "/redirect_301", follow_redirects=True)
        assert response.status_code == 200

    stderr = capsys.readouterr().err.strip()
    redirected_line, ok_line = stderr.split("\n")
    assert redirected_line.endswith('GET /redirect_301 "301 Moved Permanently"')
    assert ok_line.endswith('GET / "200 OK"')
