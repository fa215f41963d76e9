import { expect, test } from 'vitest'
import { runVitest } from './utils'

test('prints a warning if the assertion is not awaited', async () => {
  const { stderr } = await runVitest({ root: './fixtures/not-awaited' })
  expect(stderr).toContain('Promise returned by `expect(actual).resolves.toBe(expected)` was not awaited')
  expect(stderr).toContain('base.test.js:5:33')
})
