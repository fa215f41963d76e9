import django

from views import render


def test_render():
    assert render("a") == "<p>a</p>"


def test_render_legacy_escape():
    if django.VERSION >= (3, 0):
        render("b")
    else:
        assert render("<b>") == "<p>&lt;b&gt;</p>"
    assert render("c") == "<p>c</p>"
