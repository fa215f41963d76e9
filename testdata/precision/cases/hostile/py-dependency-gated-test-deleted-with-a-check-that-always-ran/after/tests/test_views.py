from views import render


def test_render():
    assert render("a") == "<p>a</p>"
