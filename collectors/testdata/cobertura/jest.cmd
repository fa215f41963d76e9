# Recorded with jest 29.7.0, jest-junit 16, node v20.20.2 in a sample project: src/calc.js (add, sub with a bug,
# div, unused) and src/calc.test.js (3 passing tests, 1 failing, 1 skipped, one nested describe).
# Output copied from out/jest-junit.xml, coverage/lcov.info, coverage/cobertura-coverage.xml.
JEST_JUNIT_OUTPUT_DIR=out JEST_JUNIT_OUTPUT_NAME=jest-junit.xml npx jest --ci --reporters=default --reporters=jest-junit --coverage --coverageReporters=lcov --coverageReporters=cobertura --coverageReporters=text-summary
# text-summary printed: Lines 66.66% ( 6/9 )
