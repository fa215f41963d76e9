var assert = require('assert');
var req = require('../lib/request');

describe('req', function () {
  describe('.get(field)', function () {
    it('should return the header field value', function () {
      var r = Object.create(req);
      r.headers = { 'content-type': 'text/plain' };
      assert.strictEqual(r.get('Content-Type'), 'text/plain');
    });
  });
});
