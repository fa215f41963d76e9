const assert = require('assert')
const { add } = require('../src/add')

it('adds', () => {
  assert.strictEqual(add(2, 2), 4)
})

it('adds negatives', () => {
  assert.strictEqual(add(-2, -2), -4)
})
