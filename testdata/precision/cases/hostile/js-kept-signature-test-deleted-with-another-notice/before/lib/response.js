'use strict';

var deprecate = require('depd')('web');

var res = module.exports = {};

res.json = function json(obj) {
  var val = obj;

  // allow status / body
  if (arguments.length === 2) {
    // res.json(body, status) backwards compat
    if (typeof arguments[1] === 'number') {
      deprecate('res.json(obj, status): Use res.status(status).json(obj) instead');
      this.statusCode = arguments[1];
    } else {
      this.statusCode = arguments[0];
      val = arguments[1];
    }
  }

  var body = JSON.stringify(val);
  this.set('Content-Type', 'application/json');
  return this.send(body);
};
