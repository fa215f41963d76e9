import { expect, test } from 'vitest'
import { runVitest } from './utils'

test('match by pattern that also matches current working directory', async () => {
  const { stdout } = await runVitest({ root: './fixtures/filters' }, ['config'])
  expect(stdout).toMatch('✓ test/config.test.ts > this will pass')
  expect(stdout).toMatch('Test Files  1 passed (1)')
  expect(stdout).not.toMatch('test/example.test.ts')
})
