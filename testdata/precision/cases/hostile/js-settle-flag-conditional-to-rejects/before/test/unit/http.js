var assert = require('assert');
var axios = require('../../index');

describe('supports http with nodejs', function () {
  it('should support max content length', function (done) {
    var failure = false;

    axios.get('http://localhost:4444/', {
      maxContentLength: 2000
    }).catch(function (err) {
      if (err.code === 'ERR_BAD_RESPONSE') {
        failure = true;
      }
    });

    setTimeout(function () {
      assert.equal(failure, true, 'request should fail with ERR_BAD_RESPONSE');
      done();
    }, 100);
  });
});
