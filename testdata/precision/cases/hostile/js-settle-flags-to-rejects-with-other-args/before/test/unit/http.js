var assert = require('assert');
var axios = require('../../index');

describe('supports http with nodejs', function () {
  it('should support max content length', function (done) {
    var success = false, failure = false;

    axios.get('http://localhost:4444/', {
      maxContentLength: 2000
    }).then(function () {
      success = true;
    }).catch(function () {
      failure = true;
    });

    setTimeout(function () {
      assert.equal(success, false, 'request should not succeed');
      assert.equal(failure, true, 'request should fail');
      done();
    }, 100);
  });
});
