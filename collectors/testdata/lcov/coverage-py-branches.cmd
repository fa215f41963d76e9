# Recorded with coverage.py 6.5.0 (Debian's python3-coverage) and pytest 7.2.1, in py/ of
# ../branches-sample.txtar:
python3-coverage run --branch --source=. -m pytest -q
python3-coverage lcov -o coverage-py-branches.info
# coverage report printed: grade.py 22 statements, 16 branches, 5 partial; BRF 16, BRH 9
