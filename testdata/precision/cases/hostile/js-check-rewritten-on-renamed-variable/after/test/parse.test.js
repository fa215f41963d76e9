import { expect, it } from 'vitest'
import { parse } from '../m.js'

it('parses', () => {
  const parsed = parse('5')
  expect(parsed).toBe(5)
})
