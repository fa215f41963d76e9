import { defaultExclude, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    exclude: ['**/fixtures-trace/**', ...defaultExclude],
  },
})
