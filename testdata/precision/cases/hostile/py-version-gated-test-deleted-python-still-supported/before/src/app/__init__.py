import sys


def run_async(func):
    if sys.version_info < (3, 7):
        raise RuntimeError("async needs Python 3.7")
    return func()
