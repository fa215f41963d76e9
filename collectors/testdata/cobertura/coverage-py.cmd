# Recorded with coverage.py 6.5.0 after the run of ../junit/pytest-xunit2.cmd:
python3 -m coverage run --branch --source=. -m pytest -q --junitxml=pytest-xunit2.xml
python3 -m coverage xml -o coverage-py.xml
