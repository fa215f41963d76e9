def u(s):
    return s
