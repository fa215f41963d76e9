# Recorded with vitest 3.2.7 and @vitest/coverage-v8 3.2.7, node v20.20.2, in a sample project:
# src/calc.js (add, sub with a bug, div, unused) and src/calc.test.js (3 passing, 1 failing,
# 1 skipped, one nested describe), vitest.config.mjs:
#   export default { test: { coverage: { provider: "v8", reportOnFailure: true,
#     reporter: ["lcov", "cobertura", "text-summary"] } } };
npx vitest run --reporter=default --reporter=junit --outputFile.junit=out/vitest-junit.xml --coverage
# text-summary printed: Lines 66.66% ( 12/18 )
