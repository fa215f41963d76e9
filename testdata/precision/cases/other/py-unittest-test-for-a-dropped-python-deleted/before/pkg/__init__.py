import sys

if sys.version_info < (3, 9):
    def removeprefix(s, p):
        return s[len(p):] if s.startswith(p) else s
else:
    def removeprefix(s, p):
        return s.removeprefix(p)
