import { expect, it } from 'vitest'

it('not awaited is auto-awaited', () => {
  expect(Promise.resolve(1)).resolves.toBe(1)
})
