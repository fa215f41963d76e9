import pytest


def test_wrapper_close_keeps_buffer():
    assert not False


@pytest.mark.stress
@pytest.mark.parametrize("_", range(1000))
def test_stress_gc_between_invocations(_):
    assert [] == []
