import { expect, it } from 'vitest'
import { user } from '../m.js'

it('names the user', () => {
  user()
  expect('bob').toBe('bob')
})
