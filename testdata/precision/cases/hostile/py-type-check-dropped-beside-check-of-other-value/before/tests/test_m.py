from pkg import parse, count


def test_parse():
    node = parse("a+b")
    assert isinstance(node, dict)
    assert count("a+b") == 3
