import mylib


def test_nargs(runner):
    assert mylib.run(runner, ["a", "b"]) == ("a", "b")


def test_envvar_flag_value(runner):
    # is_flag is implicitly true
    cmd = mylib.command(mylib.option("--upper", flag_value="upper", envvar="UPPER"))
    result = runner.invoke(cmd, env={"UPPER": "whatever"})
    assert result.output.strip() == "upper"
