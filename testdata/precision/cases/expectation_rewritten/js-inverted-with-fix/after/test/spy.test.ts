import { expect, test } from 'vitest'
import { mockClass } from '../src/spy'

test('spies on classes', () => {
  class Impl { test() {} }
  const Spy = mockClass(Impl) as any
  expect(new Spy()).toBeInstanceOf(Spy)
  expect(new Spy()).toBeInstanceOf(Impl)
})
