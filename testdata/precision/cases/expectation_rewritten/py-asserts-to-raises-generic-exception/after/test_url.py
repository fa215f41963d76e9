import pytest

from mylib.urls import URL, InvalidURL


def test_url_copywith_security():
    with pytest.raises(Exception):
        URL("https://u:p@[invalid!]//evilHost/path")

    url = URL("https://example.com/path")
    bad = "https://xxxx:xxxx@xxxxxxx/xxxxx"
    with pytest.raises(Exception):
        url.copy_with(scheme=bad)
