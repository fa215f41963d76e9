from pkg.app import App


def test_hooks():
    app = App()
    before_called = 0

    @app.before_request
    def before():
        nonlocal before_called
        before_called += 1

    app.handle()
    app.handle()
    assert before_called == 2
