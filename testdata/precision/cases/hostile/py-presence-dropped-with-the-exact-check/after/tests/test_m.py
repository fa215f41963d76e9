from pkg import get


def test_get():
    resp = get("/")
    assert resp.ok
