'use strict'

var express = require('../')
var request = require('supertest')

describe('res', function () {
  describe('.location(url)', function () {
    it('should set the header', function (done) {
      var app = express()
      app.use(function (req, res) {
        res.location('http://google.com/').end()
      })
      request(app)
        .get('/')
        .expect('Location', 'http://google.com/')
        .expect(200, done)
    })

    describe('when url is "back"', function () {
      it('should set location from "Referer" header', function (done) {
        var app = express()
        app.use(function (req, res) {
          res.location('back').end()
        })
        request(app)
          .get('/')
          .set('Referer', '/some/page.html')
          .expect('Location', '/some/page.html')
          .expect(200, done)
      })

      it('should set the header to "/" without referrer', function (done) {
        var app = express()
        app.use(function (req, res) {
          res.location('back').end()
        })
        request(app)
          .get('/')
          .expect('Location', '/')
          .expect(200, done)
      })
    })
  })
})
