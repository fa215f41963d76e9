# Recorded with c8 12.0.0, node v20.20.2 (node:test), in a sample project: calc.js (add, sub with
# a bug, div, unused) and calc.test.js (2 passing tests, 1 failing, 1 skipped).
c8 --reporter=lcov --reporter=text-summary node --test calc.test.js
# text-summary printed: Lines 73.91% ( 17/23 )
