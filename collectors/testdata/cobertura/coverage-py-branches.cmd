# Recorded with coverage.py 6.5.0 (Debian's python3-coverage) and pytest 7.2.1, in py/ of
# ../branches-sample.txtar, from the run of ../lcov/coverage-py-branches.cmd:
python3-coverage run --branch --source=. -m pytest -q
python3-coverage xml -o coverage-py-branches.xml
# The root states branches-valid="16" branches-covered="9" branch-rate="0.5625".
