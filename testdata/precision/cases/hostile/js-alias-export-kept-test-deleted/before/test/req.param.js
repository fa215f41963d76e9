var assert = require('assert');
var req = require('../lib/request');

describe('req', function () {
  describe('.param(name)', function () {
    it('should check req.params', function () {
      var r = Object.create(req);
      r.params = { id: '12' };
      assert.strictEqual(r.param('id'), '12');
    });
  });

  describe('.param(name, default)', function () {
    it('should use the default value', function () {
      var r = Object.create(req);
      r.params = {};
      assert.strictEqual(r.param('id', 'x'), 'x');
    });
  });
});
