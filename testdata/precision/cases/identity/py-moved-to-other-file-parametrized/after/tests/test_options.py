import pytest

import mylib


def test_count(runner):
    assert mylib.run(runner, ["-v", "-v"]) == 2


@pytest.mark.parametrize(
    ("flag_value", "envvar_value", "expected"),
    [
        ("bar", "True", "bar"),
        ("bar", "bar", "bar"),
        ("bar", "random", "False"),
        ("BAR", "bar", "False"),
    ],
)
def test_envvar_flag_value(runner, flag_value, envvar_value, expected):
    """Ensure that flag_value is recognized by the envvar."""
    cmd = mylib.command(
        mylib.option("--upper", type=str, is_flag=True, flag_value=flag_value, envvar="UPPER")
    )
    result = runner.invoke(cmd, env={"UPPER": envvar_value})
    assert result.exit_code == 0
    assert result.output == f"{expected!r}\n"
