# Recorded with eslint v9.39.5 (and @microsoft/eslint-formatter-sarif 3.1.0 for SARIF), node v20.20.2,
# in a sample project: eslint.config.mjs sets no-unused-vars to error and eqeqeq to warn on js/**/*.js;
# js/app.js has one of each, js/broken.js does not parse (fatal), js/clean.js has an eqeqeq
# suppressed by an eslint-disable-next-line comment.
npx eslint -f json -o eslint.json js/
npx eslint -f @microsoft/eslint-formatter-sarif -o eslint.sarif js/
npx eslint -f checkstyle -o eslint-checkstyle.xml js/
