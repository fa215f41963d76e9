'use strict';

var http = require('http');

var req = Object.create(http.IncomingMessage.prototype);

module.exports = req;

function install(req) {
  req.param = function param(name, defaultValue) {
    var params = this.params || {};
    if (params[name] != null) return params[name];
    return defaultValue;
  };
}

install(req);

req.get = function header(name) {
  return this.headers[name.toLowerCase()];
};

