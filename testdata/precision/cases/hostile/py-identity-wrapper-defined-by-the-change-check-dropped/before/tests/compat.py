def enc(s):
    return s.encode("utf-8")
