class NoAppError(Exception):
    pass


def find_app(module):
    """Return the app a module defines, or the one its factory makes."""
    factory = getattr(module, "create_app", None)
    if factory is None:
        app = getattr(module, "app", None)
        if app is None:
            raise NoAppError("no app in module")
        return app
    return factory()
