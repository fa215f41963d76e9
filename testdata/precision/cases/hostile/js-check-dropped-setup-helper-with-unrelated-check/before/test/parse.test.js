import { expect, it } from 'vitest'
import { parse, config } from '../m.js'

function setup() {
  return config
}

it('parses', () => {
  setup()
  expect(parse('5')).toBe(5)
})
