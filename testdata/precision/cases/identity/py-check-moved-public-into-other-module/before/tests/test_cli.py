from pkg.cli import _without, usage


def test_usage():
    assert "usage" in usage()
    assert _without(["A=1", "INPUT_TOKEN=s", "INPUT_TOKENS=2"], "INPUT_TOKEN") == ["A=1", "INPUT_TOKENS=2"]
