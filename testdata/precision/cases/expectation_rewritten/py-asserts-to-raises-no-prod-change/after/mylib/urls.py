class InvalidURL(Exception):
    pass


class URL:
    def __init__(self, url):
        self.scheme, _, rest = url.partition("://")
        self.netloc, _, self.path = rest.partition("/")

    def copy_with(self, **kwargs):
        new = URL(f"{self.scheme}://{self.netloc}/{self.path}")
        for key, value in kwargs.items():
            setattr(new, key, value)
        return new
