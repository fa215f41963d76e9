var express = require('..')
var request = require('supertest')

describe('res', function () {
  describe('location header encoding', function () {
    function testRequestedRedirect (inputUrl, expected, done) {
      var app = express()

      app.use(function (req, res) {
        res.location(req.query.q).end()
      })

      request(app)
        .get('/?q=' + encodeURIComponent(inputUrl))
        .expect(200)
        .expect('Location', expected)
        .end(done)
    }

    it('should not touch already-encoded sequences in "url"', function (done) {
      testRequestedRedirect('https://example.com', 'https://example.com', done)
    })
  })
})
