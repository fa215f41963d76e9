import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          fileParallelism: false,
        },
      },
    ],
  },
})
