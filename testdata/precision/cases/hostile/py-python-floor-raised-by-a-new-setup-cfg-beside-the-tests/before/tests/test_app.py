import sys

import pytest

from app import run_async


def test_run_async():
    assert run_async(lambda: 3) == 3


@pytest.mark.skipif(sys.version_info >= (3, 7), reason="only raises before 3.7")
def test_run_async_old_python():
    with pytest.raises(RuntimeError):
        run_async(lambda: 3)
