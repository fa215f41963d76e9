def parse(s):
    return len(s) * 3
