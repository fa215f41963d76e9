from pkg.netrc import credentials_for


def test_credentials(tmp_path):
    p = tmp_path / ".netrc"
    p.write_text("machine example.org login user password pw\n")
    assert credentials_for("example.org", str(p)) == ("user", "pw")
