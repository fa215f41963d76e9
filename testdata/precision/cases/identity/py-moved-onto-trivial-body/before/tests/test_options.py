import mylib


def test_count(runner):
    assert mylib.run(runner, ["-v", "-v"]) == 2
