import pytest

from cli.options import Option


def test_multiple_flag_rejected():
    with pytest.raises(TypeError, match="'multiple' is not valid with 'is_flag'"):
        Option("--v", is_flag=True, multiple=True)


def test_count_multiple_rejected():
    with pytest.raises(TypeError, match="'count' is not valid"):
        Option("--v", count=True, multiple=True)
