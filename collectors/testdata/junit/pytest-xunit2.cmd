# Recorded with pytest 7.2.1 and coverage.py 6.5.0 (Debian python3-pytest, python3-coverage), python 3.11,
# in a sample project: calc.py and test_calc.py (test_add, test_div x2 parametrized, TestCalc.test_div_zero
# pass; test_sub fails; test_slow is skipped; test_uses_broken_fixture errors in its fixture).
python3 -m coverage run --branch --source=. -m pytest -q --junitxml=pytest-xunit2.xml
