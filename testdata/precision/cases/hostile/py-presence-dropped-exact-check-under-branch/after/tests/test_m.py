from pkg import get


def test_get():
    resp = get("/")
    if resp is not None:
        assert resp.status == 200
