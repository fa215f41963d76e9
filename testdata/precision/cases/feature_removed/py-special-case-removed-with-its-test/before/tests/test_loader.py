from app.loader import load


def test_lazy_returns_a_loader():
    assert callable(load("lazy", "os:path"))


def test_import_at_once():
    assert load("eager", "os:path").__name__ == "posixpath"
