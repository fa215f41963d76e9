import sys

import pytest

from app import run_async


def test_run_async():
    assert run_async(lambda: 3) == 3


@pytest.mark.skipif(sys.version_info < (3, 7), reason="needs 3.7")
def test_run_async_old_python():
    assert run_async(lambda: 4) == 4
