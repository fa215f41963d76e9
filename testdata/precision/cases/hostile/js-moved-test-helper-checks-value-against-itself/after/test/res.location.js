var express = require('..')
var request = require('supertest')
var assert = require('assert')

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
        .end(function (err, res) {
          assert.strictEqual(expected, expected)
          done(err)
        })
    }

    it('should not touch already-encoded sequences in "url"', function (done) {
      testRequestedRedirect('https://google.com?q=%A710', 'https://google.com?q=%A710', done)
    })
  })
})
