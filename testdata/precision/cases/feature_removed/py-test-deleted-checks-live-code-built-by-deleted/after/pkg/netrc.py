import netrc


def credentials_for(host, path):
    """Return (login, password) for host from the netrc file at path."""
    auth = netrc.netrc(path).authenticators(host)
    if auth is None:
        return None
    return auth[0], auth[2]
