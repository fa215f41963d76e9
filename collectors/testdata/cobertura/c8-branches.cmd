# Recorded with c8 12.0.0, node v20.20.2 (node:test), in js/ of ../branches-sample.txtar:
c8 --reporter=cobertura node --test grade.test.js
# The root states branches-valid="11" branches-covered="6" branch-rate="0.5454"
# (c8's text-summary: Branches 54.54% ( 6/11 ), Lines 79.31% ( 23/29 )).
