import mylib


def test_duplicate_option_name(runner):
    cli = mylib.command(mylib.option("--xyz"), mylib.option("--xyz"))

    result = runner.invoke(cli, [])
    assert result.exit_code == 1
    assert isinstance(result.exception, UserWarning)
    assert "used more than once" in str(result.exception)
