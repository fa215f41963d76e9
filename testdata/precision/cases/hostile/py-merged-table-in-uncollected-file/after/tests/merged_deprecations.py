import pytest

import mylib
import mylib.utils


@pytest.mark.parametrize(
    ("module", "name", "target"),
    [
        (mylib, "get_stream", mylib.utils._get_stream),
        (mylib, "get_text", mylib.utils._get_text),
        (mylib.utils, "get_stream", mylib.utils._get_stream),
        (mylib.utils, "get_text", mylib.utils._get_text),
        (mylib.utils, "LazyFile", mylib.utils._LazyFile),
        (mylib.utils, "safecall", mylib.utils._safecall),
    ],
    ids=lambda v: getattr(v, "__name__", v),
)
def test_attr_deprecated(module, name, target):
    with pytest.warns(DeprecationWarning, match=name):
        value = getattr(module, name)

    assert value == target
