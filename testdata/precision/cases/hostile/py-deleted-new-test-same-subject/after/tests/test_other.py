from m import other


def test_other():
    result = other("x")
    assert result == 1
