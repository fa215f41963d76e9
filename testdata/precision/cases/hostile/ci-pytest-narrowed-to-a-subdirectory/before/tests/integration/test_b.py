def test_b():
    assert 1
