'use strict'

var assert = require('assert')
var utils = require('../lib/utils')

describe('utils', function () {
  describe('path checks', function () {
    it('should support windows', function () {
      assert.ok(utils.isAbsolute('c:\\'))
      assert.ok(utils.isAbsolute('c:/'))
      assert.ok(!utils.isAbsolute(':\\'))
    })

    it('should support unices', function () {
      assert.ok(utils.isAbsolute('/foo/bar'))
      assert.ok(!utils.isAbsolute('foo/bar/'))
    })
  })

  describe('.normalizeType', function () {
    it('should add application/', function () {
      assert.strictEqual(utils.normalizeType('json'), 'application/json')
    })
  })
})
