from web.app import App


def test_route():
    app = App()
    assert app.route("/x") == "/x"
    assert app.rules == ["/x"]
