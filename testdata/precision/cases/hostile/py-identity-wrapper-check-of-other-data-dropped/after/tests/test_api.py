import pytest

from pkg.api import post


def test_conflicting_post_params():
    url = "http://example.com/post"
    with open(__file__) as f:
        with pytest.raises(ValueError):
            post(url, data='[{"other": "data"}]', files={"some": f})


def test_unicode_method_name():
    assert post("POST", data={}) == ("POST", {}, None)
