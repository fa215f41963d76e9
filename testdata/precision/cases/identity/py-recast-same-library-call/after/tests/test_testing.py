import faulthandler
import sys

import click
import pytest
from click.testing import CliRunner

needs_fd_capture = pytest.mark.skipif(sys.platform == "win32", reason="no fd capture")


@pytest.fixture
def runner():
    return CliRunner()


def test_echo_output(runner):
    @click.command()
    def cli():
        click.echo("hello")

    result = runner.invoke(cli)
    assert result.output == "hello\n"


def test_capture_sys_output():
    @click.command()
    def cli():
        click.echo("to sys")

    result = CliRunner(capture="sys").invoke(cli)
    assert "to sys" in result.output


@needs_fd_capture
def test_capture_fd_faulthandler():
    """faulthandler.enable() works with capture='fd'."""

    @click.command()
    def cli():
        faulthandler.enable()
        click.echo("after faulthandler")

    runner = CliRunner(capture="fd")
    result = runner.invoke(cli)
    assert result.exit_code == 0
    assert "after faulthandler" in result.output
