from pkg import get, describe


def test_get():
    resp = get("/")
    assert resp is not None
    assert describe() == "resp is fine"
