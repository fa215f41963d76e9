from app.loader import load


def test_lazy_returns_a_loader():
    assert callable(load("lazy", "os:path"))
