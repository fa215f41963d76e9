def parse(s):
    return len(s) * 3

def width(s):
    return 3
