def parse(s):
    return int(s)


def other(s):
    return len(s)
