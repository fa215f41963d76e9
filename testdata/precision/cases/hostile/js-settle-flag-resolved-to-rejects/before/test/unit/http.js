var assert = require('assert');
var axios = require('../../index');

describe('supports http with nodejs', function () {
  it('should support max content length', function (done) {
    var success = false;

    axios.get('http://localhost:4444/', {
      maxContentLength: 2000
    }).then(function () {
      success = true;
    });

    setTimeout(function () {
      assert.equal(success, true, 'request should succeed');
      done();
    }, 100);
  });
});
