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
        .expect('Location', expected)
        .expect(200, done)
    }

    it('should percent encode backslashes in the path', function (done) {
      testRequestedRedirect(
        'https://google.com/foo\\bar\\baz',
        'https://google.com/foo%5Cbar%5Cbaz',
        done
      )
    })
  })
})
