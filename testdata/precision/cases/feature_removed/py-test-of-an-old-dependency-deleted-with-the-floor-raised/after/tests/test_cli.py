from unittest.mock import patch

from webapp.cli import main as cli_main


def test_main_runs():
    with patch("webapp.cli.click.echo") as echo:
        cli_main.callback()
    echo.assert_called_once_with("hello")
