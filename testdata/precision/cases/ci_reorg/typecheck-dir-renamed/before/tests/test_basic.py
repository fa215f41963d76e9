def test_f():
    from mylib import f

    assert f() == 1
