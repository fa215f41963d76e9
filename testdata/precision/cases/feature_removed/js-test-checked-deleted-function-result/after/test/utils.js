'use strict'

var assert = require('assert')
var utils = require('../lib/utils')

describe('utils', function () {
  describe('.normalizeType', function () {
    it('should add application/', function () {
      assert.strictEqual(utils.normalizeType('json'), 'application/json')
    })
  })
})
