from app.cli import run_command


def test_run_command():
    assert run_command("app") == "app"
