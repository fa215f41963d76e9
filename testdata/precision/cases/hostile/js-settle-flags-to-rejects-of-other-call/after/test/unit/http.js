var assert = require('assert');
var axios = require('../../index');

describe('supports http with nodejs', function () {
  it('should support max content length', async function () {
    await assert.rejects(() => {
      return axios.head('http://localhost:4444/', {
        maxContentLength: 2000
      });
    }, /maxContentLength size of 2000 exceeded/);
  });
});
