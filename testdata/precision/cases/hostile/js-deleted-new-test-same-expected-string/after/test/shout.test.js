import { expect, it } from 'vitest'
import { shout } from '../m.js'

it('shouts', () => {
  expect(shout('hello world')).toBe('hello world')
})
