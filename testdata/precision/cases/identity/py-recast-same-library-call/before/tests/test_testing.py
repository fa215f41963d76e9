import faulthandler

import click
import pytest
from click.testing import CliRunner


@pytest.fixture
def runner():
    return CliRunner()


def test_echo_output(runner):
    @click.command()
    def cli():
        click.echo("hello")

    result = runner.invoke(cli)
    assert result.output == "hello\n"


def test_faulthandler_enable(runner):
    """faulthandler.enable() inside CliRunner should not crash."""

    @click.command()
    @click.option("--flag", type=bool, default=True)
    def cli(flag):
        click.echo("Executing main function...")
        if flag:
            click.echo("Registering faulthandler")
            faulthandler.enable()
        click.echo("Finished executing main function.")

    result = runner.invoke(cli, ["--flag", True])
    assert result.exit_code == 0, result.output
    assert "Finished executing main function." in result.output
