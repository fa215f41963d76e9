import { expect, test } from 'vitest'
import { runVitest } from './utils'

test('fails if the assertion is not awaited', async () => {
  const { errorTree } = await runVitest({ root: './fixtures/not-awaited' })
  expect(errorTree).toBeDefined()
})
