import { expect, it } from 'vitest'
import { parse, config } from '../m.js'

function setup() {
  expect(config.mode).toBe('test')
  return config
}

it('parses', () => {
  setup()
  parse('5')
})
