import inspect
import warnings


class NoAppError(Exception):
    pass


def find_app(info, module):
    """Return the app a module defines, or the one its factory makes."""
    factory = getattr(module, "create_app", None)
    if factory is None:
        app = getattr(module, "app", None)
        if app is None:
            raise NoAppError("no app in module")
        return app
    return call_factory(info, factory)


def call_factory(info, factory):
    params = inspect.signature(factory).parameters
    if "info" in params:
        warnings.warn(
            "The 'info' argument is deprecated and will not be"
            " passed to the app factory in version 3.0.",
            DeprecationWarning,
        )
        return factory(info=info)
    return factory()
