import { describe, expect, it } from 'vitest'

describe('jest-expect', () => {
  it('expect.extend', () => {
    expect.extend({
      toBeDividedBy(received, divisor) {
        const pass = received % divisor === 0
        return { pass, message: () => `expected ${received} to be divisible by ${divisor}` }
      },
      toBeJestCompatible() {
        return {
          pass: true,
          message: () => '',
        }
      },
    })

    expect(6).toBeDividedBy(2)
    expect(() => expect(5).toBeDividedBy(2)).toThrow('divisible')
    expect(expect).toBeJestCompatible()
  })
})
