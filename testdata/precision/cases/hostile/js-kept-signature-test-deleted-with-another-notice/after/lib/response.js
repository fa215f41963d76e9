'use strict';

var deprecate = require('depd')('web');

var res = module.exports = {};

res.json = function json(obj) {
  var val = obj;

  // support res.json(status, obj)
  if (arguments.length === 2) {
    this.statusCode = arguments[0];
    val = arguments[1];
  }

  var body = JSON.stringify(val);
  this.set('Content-Type', 'application/json');
  return this.send(body);
};
