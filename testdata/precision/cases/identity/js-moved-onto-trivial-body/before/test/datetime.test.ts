import { checkSync } from 'recheck'
import { expect, test } from 'vitest'
import { patterns } from '../src/regexes'

test('parses a date', () => {
  expect(patterns.date.test('2020-01-01')).toBe(true)
})

test('redos checker', () => {
  for (const re of [patterns.date, patterns.time]) {
    const result = checkSync(re.source, '')
    if (result.status !== 'safe') throw new Error('ReDoS issue')
  }
})
