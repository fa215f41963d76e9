import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: process.env.ALL ? ['**/*.test.ts'] : ['test/**/*.test.ts'],
  },
})
