import pytest

import urlkit


@pytest.mark.parametrize(
    "url,path,query,fragment",
    [
        # Unescaped characters in the path.
        (
            "https://example.com/!$&'()*+,;= abc :/[]@",
            "/!$&'()*+,;= abc :/[]@",
            b"",
            "",
        ),
        # Escaped characters in the path.
        (
            "https://example.com/!$&'()*+,;=%20abc%20:/[]@",
            "/!$&'()*+,;=%20abc%20:/[]@",
            b"",
            "",
        ),
        # Characters in the fragment.
        (
            "https://example.com/#!$&'()*+,;= abc :/[]@?#",
            "/",
            b"",
            "!$&'()*+,;= abc :/[]@?#",
        ),
    ],
)
def test_path_query_fragment(url, path, query, fragment):
    url = urlkit.URL(url)
    assert url.path == path
    assert url.query == query
    assert url.fragment == fragment


def test_url_scheme():
    assert urlkit.URL("https://example.com").path == "/"
