from setuptools import setup

# Metadata goes in setup.cfg. These are here for GitHub's dependency graph.
setup(
    name="Webapp",
    install_requires=[
        "Werkzeug >= 2.0",
        "click >= 8.0",  # the command line
        "importlib-metadata >= 3.6.0; python_version < '3.10'",
    ],
)
