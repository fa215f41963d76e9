from pkg import parse, count


def test_parse():
    node = parse("a+b")
    assert count("a+b") == 3
