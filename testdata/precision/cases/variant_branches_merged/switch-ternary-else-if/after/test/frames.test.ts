import { expect, test } from 'vitest'
import { runBrowserTests } from './utils'

test('frame per browser (switch)', async () => {
  const { frame } = await runBrowserTests()
  expect(frame).toBe('basic.test.ts:10:34')
})

test('frame per browser (ternary)', async () => {
  const { frame } = await runBrowserTests()
  expect(frame).toBe('basic.test.ts:15:14')
})

test('frame per browser (else if)', async () => {
  const { frame } = await runBrowserTests()
  expect(frame).toEqual({ line: 20, column: 16 })
})
