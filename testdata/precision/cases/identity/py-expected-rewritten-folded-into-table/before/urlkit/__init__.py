from urllib.parse import quote, urlsplit


class URL:
    def __init__(self, url):
        parts = urlsplit(url)
        self.path = parts.path or "/"
        self.query = quote(parts.query, safe="!$&'()*+,;=:[]@?").encode()
        self.fragment = parts.fragment
