import { expect, test } from 'vitest'
import { patterns } from '../src/regexes'

test('parses a date', () => {
  expect(patterns.date.test('2020-01-01')).toBe(true)
})
