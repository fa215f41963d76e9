'use strict'

var assert = require('assert')
var core = require('..')

describe('core', function () {
  it('adds', function () {
    assert.strictEqual(core.add(2, 3), 5)
  })
})
