import { beforeEach, expect, test, vi } from 'vitest'
import { add } from '../src/add.js'

beforeEach(() => {
  vi.useFakeTimers()
})

test('adds', () => {
  expect(add(2, 2)).toBe(4)
})

test('adds negatives', () => {
  expect(add(-2, -2)).toBe(-4)
})
