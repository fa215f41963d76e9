import { expect, test } from 'vitest'
import { runVitest } from './utils'

test('match by pattern that also matches current working directory', async () => {
  const result = await runVitest({ root: './fixtures/filters' }, ['config'])
  expect(result.errorTree()).toMatchInlineSnapshot()
})
