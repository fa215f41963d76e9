from pkg import get


def test_get():
    resp = get("/")
    assert resp is not None
    assert resp.status == 200
    assert resp.ok
