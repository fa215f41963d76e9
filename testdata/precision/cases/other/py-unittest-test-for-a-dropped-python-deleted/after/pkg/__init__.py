def removeprefix(s, p):
    return s.removeprefix(p)
