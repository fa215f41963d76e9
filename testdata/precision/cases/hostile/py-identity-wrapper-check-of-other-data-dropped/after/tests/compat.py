import warnings


def u(s):
    warnings.warn("u() is no longer needed on Python 3", DeprecationWarning)
    return s
