var assert = require('assert')
var express = require('..')

describe('in production', function () {
  it('should enable "view cache"', function () {
    var app = express()
    assert.ok(app.enabled('view cache'))
  })
})
