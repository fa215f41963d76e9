var assert = require('assert');
var axios = require('../../index');

describe('supports http with nodejs', function () {
  it('should support max content length', function (done) {
    var success = false, failure = false, error;

    axios.get('http://localhost:4444/', {
      maxContentLength: 2000
    }).then(function () {
      success = true;
    }).catch(function (err) {
      error = err;
      failure = true;
    });

    setTimeout(function () {
      assert.equal(success, false, 'request should not succeed');
      assert.equal(failure, true, 'request should fail');
      assert.equal(error.message, 'maxContentLength size of 2000 exceeded');
      done();
    }, 100);
  });
});
