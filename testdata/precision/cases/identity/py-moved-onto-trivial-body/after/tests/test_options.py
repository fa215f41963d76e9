import pytest

import mylib


def test_count(runner):
    assert mylib.run(runner, ["-v", "-v"]) == 2


@pytest.mark.parametrize("envvar_value", ["True", "bar"])
def test_envvar_flag_value(runner, envvar_value):
    cmd = mylib.command(mylib.option("--upper", is_flag=True, envvar="UPPER"))
    runner.invoke(cmd, env={"UPPER": envvar_value})
