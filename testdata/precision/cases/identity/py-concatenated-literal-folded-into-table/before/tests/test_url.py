import urlkit


def test_path_encoding():
    url = urlkit.URL("https://example.com/!$&'()*+,;= abc :/[]@")
    assert url.path == "/!$&'()*+,;= abc :/[]@"
    assert url.query == b""
    assert url.fragment == ""


def test_hash_characters():
    url = urlkit.URL("https://example.com/" + "#!$&'()*+,;= abc :/[]@" + "?#")
    assert url.path == "/"
    assert url.fragment == "!$&'()*+,;= abc :/[]@?#"


def test_url_scheme():
    assert urlkit.URL("https://example.com").path == "/"
