import urlkit


def test_query_escaping():
    url = urlkit.URL("https://example.com/?a b:/[]" + "?" + "#top")
    assert url.query == b"a%20b:%2F[]?"
    assert url.path == "/"
    assert url.fragment == "top"


def test_url_scheme():
    assert urlkit.URL("https://example.com").path == "/"
