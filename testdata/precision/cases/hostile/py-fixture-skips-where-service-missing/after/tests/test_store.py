from calc import add


def test_add_stored(db_url):
    assert db_url.startswith("postgres://")
    assert add(1, 1) == 2
