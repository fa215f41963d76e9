# Same project as pytest-xunit2.cmd; xunit1 adds file and line attributes to each test case.
python3 -m pytest -q -o junit_family=xunit1 --junitxml=pytest-xunit1.xml
