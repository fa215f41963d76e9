var express = require('../')
var request = require('supertest')

describe('req', function () {
  describe('.flag', function () {
    it('should be true when X-Flag is set', function (done) {
      var app = express()

      app.use(function (req, res) {
        res.send(req.flag)
      })

      request(app)
        .get('/')
        .set('X-Flag', '1')
        .expect(200, 'true', done)
    })
  })
})
