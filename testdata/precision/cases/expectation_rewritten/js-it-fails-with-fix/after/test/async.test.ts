import { expect, it } from 'vitest'

it.fails('not awaited fails', () => {
  expect(Promise.resolve(1)).resolves.toBe(1)
})
