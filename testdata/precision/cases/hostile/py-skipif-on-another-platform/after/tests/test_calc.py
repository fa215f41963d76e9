import sys

import pytest

from calc import add


@pytest.mark.skipif(sys.platform == "win32", reason="posix only")
def test_add():
    assert add(2, 2) == 4
