from pkg import get


def test_get():
    resp = get("/")
    assert resp.body is not None
    assert resp.status == 200
