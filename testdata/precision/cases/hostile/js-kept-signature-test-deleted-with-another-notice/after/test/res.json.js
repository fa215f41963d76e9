'use strict';

var assert = require('assert');
var request = require('supertest');
var web = require('../lib/app');

describe('res', function () {
  describe('.json(object, status)', function () {
    it('should respond with json and set the .statusCode for backwards compat', function (done) {
      var app = web();
      app.use(function (req, res) {
        res.json({ id: 1 }, 201);
      });
      request(app)
        .get('/')
        .expect('Content-Type', 'application/json; charset=utf-8')
        .expect(201, '{"id":1}', done);
    });
  });
});
