var assert = require('assert');
var axios = require('../../index');

describe('supports http with nodejs', function () {
  it('should support max content length', async function () {
    await assert.rejects(() => {
      return axios.get('http://localhost:4444/', {
        maxContentLength: 2000
      });
    });
  });
});
