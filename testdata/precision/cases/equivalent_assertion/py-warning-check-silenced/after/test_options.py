import warnings

import mylib


def test_duplicate_option_name(runner):
    cli = mylib.command(mylib.option("--xyz"), mylib.option("--xyz"))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runner.invoke(cli, [])
