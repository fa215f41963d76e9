# Recorded with node v20.20.2's built-in junit reporter (node:test), in the sample project of
# ../lcov/c8.cmd: calc.test.js has 2 passing tests, 1 failing, 1 skipped. Test cases sit
# directly under <testsuites>.
node --test --test-reporter=junit --test-reporter-destination=node-test.xml calc.test.js
