# Recorded with c8 12.0.0, node v20.20.2 (node:test), in js/ of ../branches-sample.txtar:
c8 --reporter=lcov --reporter=text-summary node --test grade.test.js
# text-summary printed: Branches 54.54% ( 6/11 ), Lines 79.31% ( 23/29 )
