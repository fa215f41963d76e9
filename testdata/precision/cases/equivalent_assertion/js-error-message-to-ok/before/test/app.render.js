var express = require('../');
var path = require('path');

describe('app', function(){
  describe('.render(name, fn)', function(){
    it('should invoke the callback when an error occurs', function(done){
      var app = express();
      app.set('views', path.join(__dirname, 'fixtures'))
      app.render('user.tmpl', function (err, str) {
        process.nextTick(function(){
          err.message.should.match(/Cannot read property '[^']+' of undefined/);
          done();
        });
      })
    })
  })
})
