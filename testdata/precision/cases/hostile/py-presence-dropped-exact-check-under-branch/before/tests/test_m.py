from pkg import get


def test_get():
    resp = get("/")
    assert resp is not None
    if resp is not None:
        assert resp.status == 200
