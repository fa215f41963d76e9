'use strict'

var express = require('../')
  , request = require('supertest');

describe('res', function(){
  var mode;
  function makeApp(m) {
    var app = express();
    app.set('jsonp mode', m);
    app.get('/', function(req, res){ res.jsonp({ hello: 'world' }); });
    return app;
  }

  describe('loose', function(){
    beforeEach(function(){ mode = 'loose' })

    it('responds with json', function(done){
      request(makeApp(mode))
      .get('/')
      .expect(200, '{"hello":"world"}', done)
    })
  })

  describe('strict', function(){
    beforeEach(function(){ mode = 'strict' })

    it('responds with json', function(done){
      request(makeApp(mode))
      .get('/')
      .expect(200, '{"hello":"world"}', done)
    })
  })
})
