'use strict';

var http = require('http');

var req = Object.create(http.IncomingMessage.prototype);

module.exports = req;

req.get = function header(name) {
  return this.headers[name.toLowerCase()];
};

req.param = function param(name, defaultValue) {
  var params = this.params || {};
  if (params[name] != null) return params[name];
  return defaultValue;
};
