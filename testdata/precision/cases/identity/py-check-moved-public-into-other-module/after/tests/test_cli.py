from pkg.cli import usage


def test_usage():
    assert "usage" in usage()
