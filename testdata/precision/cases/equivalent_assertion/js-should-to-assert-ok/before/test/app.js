var express = require('..')

describe('in production', function () {
  it('should enable "view cache"', function () {
    var app = express()
    app.enabled('view cache').should.be.true()
  })
})
