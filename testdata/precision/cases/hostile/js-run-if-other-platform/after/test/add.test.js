import { expect, test } from 'vitest'
import { add } from '../src/add.js'

test.runIf(process.platform === 'win32')('adds', () => {
  expect(add(2, 2)).toBe(4)
})
