import pytest

import mylib
import mylib.utils


@pytest.mark.parametrize(
    ("module", "name"),
    [
        (mylib, "get_stream"),
    ],
)
def test_attr_deprecated(module, name):
    getattr(module, name)
