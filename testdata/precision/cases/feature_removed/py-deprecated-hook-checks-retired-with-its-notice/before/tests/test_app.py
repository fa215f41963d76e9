import pytest

from pkg.app import App


def test_hooks():
    app = App()
    first_called = False
    before_called = 0

    with pytest.deprecated_call():

        @app.before_first_request
        def first():
            nonlocal first_called
            first_called = True

    @app.before_request
    def before():
        nonlocal before_called
        before_called += 1

    app.handle()
    app.handle()
    assert first_called
    assert before_called == 2
