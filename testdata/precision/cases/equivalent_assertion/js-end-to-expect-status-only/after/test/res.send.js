var express = require('..')
var request = require('supertest')

describe('res', function () {
  describe('.send(String)', function () {
    it('should send as html', function (done) {
      var app = express()

      app.use(function (req, res) {
        res.send('<p>hey</p>')
      })

      request(app)
        .get('/')
        .expect('Content-Type', 'text/html; charset=utf-8')
        .expect(200, done)
    })
  })
})
