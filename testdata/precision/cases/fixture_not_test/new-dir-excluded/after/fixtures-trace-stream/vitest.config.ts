export default { test: { browser: { enabled: true } } }
