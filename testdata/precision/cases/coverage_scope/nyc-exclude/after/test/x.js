var assert = require('assert')

describe('x', function () {
  it('works', function () {
    assert.strictEqual(1 + 1, 2)
  })
})
