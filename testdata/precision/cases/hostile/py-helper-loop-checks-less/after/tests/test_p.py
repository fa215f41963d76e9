from p import parse


def check_parse(cases):
    for text, want in cases:
        assert parse(text) is not None


def test_parse():
    check_parse([("1", 1), ("42", 42), ("-7", -7)])
