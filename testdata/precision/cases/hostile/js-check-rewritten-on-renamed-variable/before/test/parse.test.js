import { expect, it } from 'vitest'
import { parse } from '../m.js'

it('parses', () => {
  const n = parse('5')
  expect(n).toBe(5)
})
