from setuptools import setup


def requirements():
    with open("requirements.txt") as f:
        return [l.strip() for l in f if l.strip()]


setup(name="Webapp", install_requires=requirements())
