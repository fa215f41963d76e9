from mylib.urls import URL


def test_url_copywith_security():
    url = URL("https://u:p@[invalid!]//evilHost/path")
    original_scheme = url.scheme
    original_netloc = url.netloc
    original_path = url.path
    url = url.copy_with()
    assert url.scheme == original_scheme
    assert url.netloc == original_netloc
    assert url.path == original_path

    url = URL("https://example.com/path")
    bad = "https://xxxx:xxxx@xxxxxxx/xxxxx"
    url = url.copy_with(scheme=bad)
    assert url.scheme == bad
    assert url.netloc == "example.com"
    assert url.path == "path"
