var assert = require('assert');
var express = require('../');
var path = require('path');

describe('app', function(){
  describe('.render(name, fn)', function(){
    it('should invoke the callback when an error occurs', function(done){
      var app = express();
      app.set('views', path.join(__dirname, 'fixtures'))
      app.render('user.tmpl', function (err) {
        assert.ok(err)
        assert.equal(err.name, 'RenderError')
        done()
      })
    })
  })
})
