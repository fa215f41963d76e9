import os


def sep():
    return "/"
