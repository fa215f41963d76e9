from pkg.netrc import credentials_for, trust_env_netrc


def test_implicit_netrc_from_environment():
    assert trust_env_netrc({"NETRC": "/tmp/.netrc"}) == "/tmp/.netrc"
    assert trust_env_netrc({}) is None


def test_credentials(tmp_path):
    p = tmp_path / ".netrc"
    p.write_text("machine example.org login user password pw\n")
    assert credentials_for("example.org", str(p)) == ("user", "pw")
