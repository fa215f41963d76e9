from pkg.env import without


def test_without():
    assert without(["A=1", "INPUT_TOKEN=s", "INPUT_TOKENS=2"], "INPUT_TOKEN") == ["A=1", "INPUT_TOKENS=2"]
