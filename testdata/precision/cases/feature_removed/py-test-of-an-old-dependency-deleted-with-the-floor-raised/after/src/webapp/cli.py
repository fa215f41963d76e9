import click


@click.command()
def main():
    click.echo("hello")
