# pytest 7.2.1 (Debian python3-pytest), tests/test_a.py with a passing, a
# failing, a skipped, an xfail and a parametrized test:
PYTEST_ADDOPTS=-rA /usr/bin/python3 -m pytest -p no:cacheprovider tests > pytest-rA.txt 2>&1
