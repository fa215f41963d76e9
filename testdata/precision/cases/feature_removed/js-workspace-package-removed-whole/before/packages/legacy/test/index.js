'use strict'

var assert = require('assert')
var legacy = require('..')

describe('legacy', function () {
  it('pads numbers', function () {
    assert.strictEqual(legacy.pad(7, 3), '007')
  })
})
