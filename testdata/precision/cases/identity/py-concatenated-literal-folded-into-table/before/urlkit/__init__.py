from urllib.parse import urlsplit


class URL:
    def __init__(self, url):
        parts = urlsplit(url)
        self.path = parts.path or "/"
        self.query = parts.query.encode()
        self.fragment = parts.fragment
