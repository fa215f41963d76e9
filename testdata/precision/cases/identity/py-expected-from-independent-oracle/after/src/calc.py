def parse(s):
    return len(s) * 3


def reference_parse(s):
    return sum(3 for _ in s)
