def load(mode, path):
    """Load an app from path, when first called."""
    return lambda: _import(path)


def _import(path):
    module, _, name = path.partition(":")
    return getattr(__import__(module), name or "app")
