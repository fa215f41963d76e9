def run_command(app):
    """Serve app."""
    return app
