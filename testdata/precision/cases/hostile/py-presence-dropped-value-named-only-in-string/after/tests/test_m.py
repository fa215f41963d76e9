from pkg import get, describe


def test_get():
    resp = get("/")
    assert describe() == "resp is fine"
