class InvalidURL(Exception):
    pass


def _check(part):
    if any(c in part for c in "[]!@"):
        raise InvalidURL(part)
    return part


class URL:
    def __init__(self, url):
        scheme, _, rest = url.partition("://")
        netloc, _, path = rest.partition("/")
        self.scheme, self.netloc, self.path = _check(scheme), _check(netloc), path

    def copy_with(self, **kwargs):
        new = URL(f"{self.scheme}://{self.netloc}/{self.path}")
        for key, value in kwargs.items():
            setattr(new, key, _check(value))
        return new
