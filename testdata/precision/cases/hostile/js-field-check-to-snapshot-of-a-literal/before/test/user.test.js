import { expect, it } from 'vitest'
import { user } from '../m.js'

it('names the user', () => {
  expect(user().name).toBe('bob')
})
