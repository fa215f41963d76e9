var assert = require('assert')
var express = require('..')

describe('app', function () {
  describe('.use(path, middleware)', function () {
    it('should reject missing functions', function () {
      var app = express()
      assert.throws(app.use.bind(app, '/'), /requires middleware function/)
    })

    it('should reject non-functions as middleware', function () {
      var app = express()
      assert.throws(app.use.bind(app, '/', 'hi'), /argument handler must be a function/)
      assert.throws(app.use.bind(app, '/', 5), /argument handler must be a function/)
      assert.throws(app.use.bind(app, '/', null), /argument handler must be a function/)
    })
  })
})
