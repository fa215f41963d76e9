import { expect, it } from 'vitest'
import { greet } from '../m.js'

it('greets', () => {
  expect(greet('world')).toBe('hello world')
})
