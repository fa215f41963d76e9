import { defaultExclude, defineConfig } from 'vitest/config'

const serialTests = [
  'test/git-changed.test.ts',
]

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: [...defaultExclude, ...serialTests],
          fileParallelism: true,
        },
      },
    ],
  },
})
