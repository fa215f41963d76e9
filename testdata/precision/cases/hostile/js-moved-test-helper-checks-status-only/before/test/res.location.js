var express = require('..')
var request = require('supertest')

describe('res', function () {
  describe('.location(url)', function () {
    it('should not touch already-encoded sequences in "url"', function (done) {
      var app = express()

      app.use(function (req, res) {
        res.location('https://google.com?q=%A710').end()
      })

      request(app)
        .get('/')
        .expect('Location', 'https://google.com?q=%A710')
        .expect(200, done)
    })
  })
})
