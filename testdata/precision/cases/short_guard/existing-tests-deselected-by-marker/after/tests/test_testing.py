import pytest


@pytest.mark.slow
def test_invoke():
    assert 1 + 1 == 2
