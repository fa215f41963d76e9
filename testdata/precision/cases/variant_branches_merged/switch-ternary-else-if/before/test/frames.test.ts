import { expect, test } from 'vitest'
import { runBrowserTests } from './utils'

test('frame per browser (switch)', async () => {
  const { frame, browser } = await runBrowserTests()
  switch (browser) {
    case 'webkit':
      expect(frame).toBe('basic.test.ts:10:38')
      break
    case 'firefox':
    case 'chromium':
      expect(frame).toBe('basic.test.ts:10:33')
      break
    default:
      expect(frame).toBe('basic.test.ts:10:30')
  }
})

test('frame per browser (ternary)', async () => {
  const { frame, browser } = await runBrowserTests()
  browser === 'webkit'
    ? expect(frame).toBe('basic.test.ts:15:18')
    : expect(frame).toBe('basic.test.ts:15:13')
})

test('frame per browser (else if)', async () => {
  const { frame, browser } = await runBrowserTests()
  if (browser === 'webkit') {
    expect(frame).toEqual({ line: 20, column: 23 })
  } else if (browser === 'firefox') {
    expect(frame).toEqual({ line: 20, column: 19 })
  } else {
    expect(frame).toEqual({ line: 20, column: 15 })
  }
})
