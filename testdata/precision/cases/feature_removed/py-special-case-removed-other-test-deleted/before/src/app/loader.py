def load(mode, path):
    """Load an app from path; mode "eager" imports it at once."""
    if mode == "eager":
        return _import(path)
    return lambda: _import(path)


def _import(path):
    module, _, name = path.partition(":")
    return getattr(__import__(module), name or "app")
