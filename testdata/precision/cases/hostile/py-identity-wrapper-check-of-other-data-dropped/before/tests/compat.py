import sys

if sys.version_info[0] >= 3:
    def u(s):
        return s
else:
    def u(s):
        return s.decode("unicode-escape")
