import path from 'node:path'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'main', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'fixtures', root: path.join(import.meta.dirname, 'fixtures') } },
    ],
  },
})
