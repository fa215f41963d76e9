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
        .end(function (err, res) {
          res.headers.should.have.property('content-type', 'text/html; charset=utf-8')
          res.text.should.equal('<p>hey</p>')
          res.statusCode.should.equal(200)
          done()
        })
    })
  })
})
