from pkg.netrc import credentials_for, trust_env_netrc


def test_implicit_netrc_from_environment(tmp_path):
    p = tmp_path / ".netrc"
    p.write_text("machine example.org login user password pw\n")
    path = trust_env_netrc({"NETRC": str(p)})
    assert credentials_for("example.org", path) == ("user", "pw")
    assert credentials_for("other.org", path) is None


def test_credentials(tmp_path):
    p = tmp_path / ".netrc"
    p.write_text("machine example.org login user password pw\n")
    assert credentials_for("example.org", str(p)) == ("user", "pw")
