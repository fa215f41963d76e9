import pytest

from cli.options import Option


def test_count_multiple_rejected():
    with pytest.raises(TypeError, match="'count' is not valid"):
        Option("--v", count=True, multiple=True)
