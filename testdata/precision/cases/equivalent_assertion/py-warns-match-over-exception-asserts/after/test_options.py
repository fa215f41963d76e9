import pytest

import mylib


def test_duplicate_option_name(runner):
    cli = mylib.command(mylib.option("--xyz"), mylib.option("--xyz"))

    with pytest.warns(UserWarning, match="used more than once"):
        runner.invoke(cli, [])
