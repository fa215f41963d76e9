"""Usage::

   >>> import mylib
   >>> r = mylib.get('https://www.python.org')
"""


def get(url):
    return url
