import { expect, it } from 'vitest'
import { user } from '../m.js'

it('names the user', () => {
  const u = user()
  expect({ name: 'bob' }).toMatchInlineSnapshot(`
    {
      "name": "bob",
    }
  `)
})
