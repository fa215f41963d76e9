import pytest

from mylib.urls import URL


def test_url_copywith_security():
    with pytest.raises(Exception):
        url = URL("https://u:p@[invalid!]//evilHost/path")
        url.copy_with()
        assert url.netloc == "never compared"

    url = URL("https://example.com/path")
    bad = "https://xxxx:xxxx@xxxxxxx/xxxxx"
    with pytest.raises(Exception):
        url.copy_with(scheme=bad)
