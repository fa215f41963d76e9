import pytest


@pytest.fixture
def neg():
    pytest.skip("wip")
