import pytest

from pkg.cli import NoAppError, find_app


class App:
    def __init__(self, name):
        self.name = name


def test_find_app():
    class Module:
        app = App("plain")

    assert find_app(None, Module) is Module.app

    class Module:
        @staticmethod
        def create_app():
            return App("made")

    app = find_app(None, Module)
    assert app.name == "made"

    class Module:
        @staticmethod
        def create_app(info=None):
            return App("with info")

    with pytest.deprecated_call(match="'info' argument is deprecated"):
        app = find_app("info", Module)

    assert isinstance(app, App)

    class Other:
        app = App("other")

    app = find_app(None, Other)
    assert app.name == "other"

    class Module:
        pass

    with pytest.raises(NoAppError):
        find_app(None, Module)
