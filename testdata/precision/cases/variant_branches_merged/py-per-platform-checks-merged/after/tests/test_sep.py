from m import sep


def test_sep():
    got = sep()
    assert got == "/"
