from unittest.mock import patch

import click
import pytest

from webapp.cli import main as cli_main


def test_main_runs():
    with patch("webapp.cli.click.echo") as echo:
        cli_main.callback()
    echo.assert_called_once_with("hello")


def test_click_7_deprecated():
    with patch("webapp.cli.main"):
        if int(click.__version__[0]) < 8:
            pytest.deprecated_call(cli_main, match=".* Click 7 is deprecated")
        else:
            cli_main()
