def test_a():
    assert 1
