import { expect, it, describe } from 'vitest'
import { add } from '../add'

describe('add', () => {
  it.each([
    { a: 1, b: 2, want: 3 },
  ])('adds $a and $b', ({ a, b, want }) => {
    expect(add(a, b)).toBe(want)
  })

  it('adds zero', () => {
    expect(add(0, 0)).toBe(0)
  })

  it('adds zero again', () => {
    expect(add(0, 0)).toBe(0)
  })
})
