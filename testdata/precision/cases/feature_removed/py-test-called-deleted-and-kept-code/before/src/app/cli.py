import threading


class DispatchingApp:
    """Loads the app in a background thread, re-raising its error later."""

    def __init__(self, loader):
        self._lock = threading.Lock()
        self._bg_loading_exc = None
        try:
            loader()
        except Exception as e:
            self._bg_loading_exc = e

    def _flush_bg_loading_exception(self):
        exc = self._bg_loading_exc
        if exc is not None:
            self._bg_loading_exc = None
            raise exc


def run_command(app):
    """Serve app."""
    return app
