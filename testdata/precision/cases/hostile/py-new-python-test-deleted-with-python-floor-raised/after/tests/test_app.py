from app import run_async


def test_run_async():
    assert run_async(lambda: 3) == 3
