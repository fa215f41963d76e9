def u(s):
    return s.encode("utf-8")
