import pytest

from app.cli import DispatchingApp, run_command


def test_lazy_load_error():
    class BadExc(Exception):
        pass

    def bad_load():
        raise BadExc

    lazy = DispatchingApp(bad_load)
    with lazy._lock:
        with pytest.raises(BadExc):
            lazy._flush_bg_loading_exception()


def test_run_command():
    assert run_command("app") == "app"
