import { expect, it } from 'vitest'
import { parse, version } from '../m.js'

it('parses', () => {
  expect(parse('5')).toBe(5)
})
