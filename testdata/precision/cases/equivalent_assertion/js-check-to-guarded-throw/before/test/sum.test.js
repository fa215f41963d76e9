const { sum } = require('../sum')

test('adds', () => {
  const result = sum(40, 2)
  expect(result).toBe(42)
})
