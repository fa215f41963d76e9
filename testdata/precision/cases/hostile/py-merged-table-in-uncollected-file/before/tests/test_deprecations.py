import pytest

import mylib
import mylib.utils


@pytest.mark.parametrize("module", [mylib, mylib.utils], ids=["mylib", "mylib.utils"])
@pytest.mark.parametrize("name", ["get_stream", "get_text"])
def test_stream_helper_deprecated(module, name):
    with pytest.warns(DeprecationWarning, match=name):
        getattr(module, name)


@pytest.mark.parametrize("name", ["LazyFile", "safecall"])
def test_utilities_deprecated(name):
    with pytest.warns(DeprecationWarning, match=name):
        getattr(mylib.utils, name)
