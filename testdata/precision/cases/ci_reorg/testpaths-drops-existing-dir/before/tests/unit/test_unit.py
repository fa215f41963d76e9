def test_unit():
    assert 2 * 2 == 4
