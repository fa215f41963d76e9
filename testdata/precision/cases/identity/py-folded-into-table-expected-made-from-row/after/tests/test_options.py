import click
import pytest


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    (
        ("SHOUT", "true", True),
        ("SHOUT", " true ", True),
        ("SHOUT", "0", False),
        ("RANDOM", "True", False),
    ),
)
def test_boolean_envvar_normalization(runner, name, value, expected):
    @click.command()
    @click.option("--shout/--no-shout", envvar="SHOUT")
    def cli(shout):
        click.echo(f"shout: {shout!r}")

    result = runner.invoke(cli, [], env={name: value})
    assert result.exit_code == 0
    assert result.output == f"shout: {expected}\n"
