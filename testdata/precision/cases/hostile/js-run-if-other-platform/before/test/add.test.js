import { expect, test } from 'vitest'
import { add } from '../src/add.js'

test('adds', () => {
  expect(add(2, 2)).toBe(4)
})
