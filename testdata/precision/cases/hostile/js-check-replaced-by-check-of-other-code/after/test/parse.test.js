import { expect, it } from 'vitest'
import { parse, version } from '../m.js'

it('parses', () => {
  parse('5')
  expect(version()).toBe(1)
})
