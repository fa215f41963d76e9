import { expect, test } from 'vitest'
import { runVitest } from './utils'

test('runs the basic fixture', async () => {
  const { exitCode } = await runVitest({ root: './fixtures/basic' })
  expect(exitCode).toBe(0)
})
