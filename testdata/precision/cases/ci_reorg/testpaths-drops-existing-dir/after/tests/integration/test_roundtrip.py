def test_roundtrip():
    assert 1 + 1 == 2
