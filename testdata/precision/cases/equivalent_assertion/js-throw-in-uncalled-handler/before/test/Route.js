var express = require('..')
var Route = express.Route

describe('Route', function () {
  it('should skip error handlers without an error', function (done) {
    var route = new Route('')
    route.all(function (err, req, res, next) {
      true.should.be.false()
    })
    route.dispatch({ method: 'GET', url: '/' }, {}, done)
  })
})
