import shutil

import pytest

from calc import add


def test_add():
    if not shutil.which("git"):
        pytest.skip("no git")
    assert add(2, 2) == 4
