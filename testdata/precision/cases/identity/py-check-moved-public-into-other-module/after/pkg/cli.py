def usage():
    return "usage: pkg"
