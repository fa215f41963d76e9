import pytest

from pkg.api import post

from .compat import u


def test_conflicting_post_params():
    url = "http://example.com/post"
    with open(__file__) as f:
        with pytest.raises(ValueError):
            post(url, data='[{"some": "data"}]', files={"some": f})
        with pytest.raises(ValueError):
            post(url, data=u('[{"some": "data"}]'), files={"some": f})


def test_unicode_method_name():
    assert post(u("POST"), data={}) == ("POST", {}, None)
