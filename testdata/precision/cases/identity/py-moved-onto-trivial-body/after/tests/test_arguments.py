import mylib


def test_nargs(runner):
    assert mylib.run(runner, ["a", "b"]) == ("a", "b")
