import { expect, test } from 'vitest'

test('non default snapshot format', () => {
  expect({ foo: ['bar'] }).toMatchInlineSnapshot(`
    {
      "foo": [
        "bar",
      ],
    }
  `)
})
