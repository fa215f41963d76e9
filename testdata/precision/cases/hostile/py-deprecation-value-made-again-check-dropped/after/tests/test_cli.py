import pytest

from pkg.cli import NoAppError, find_app


class App:
    def __init__(self, name):
        self.name = name


def test_find_app():
    class Module:
        app = App("plain")

    assert find_app(Module) is Module.app

    class Module:
        @staticmethod
        def create_app():
            return App("made")

    app = find_app(Module)
    assert app.name == "made"

    class Other:
        app = App("other")

    app = find_app(Other)

    class Module:
        pass

    with pytest.raises(NoAppError):
        find_app(Module)
