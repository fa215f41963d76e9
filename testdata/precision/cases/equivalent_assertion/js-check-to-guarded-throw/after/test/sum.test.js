const { sum } = require('../sum')

test('adds', () => {
  const result = sum(40, 2)
  if (result === undefined) throw new Error('no result')
})
