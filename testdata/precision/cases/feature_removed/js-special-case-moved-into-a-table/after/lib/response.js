'use strict'

var res = module.exports = {}

var aliases = {
  'back': function (req) { return req.get('Referrer') || '/' }
}

res.location = function location (url) {
  var alias = aliases[url]
  return this.set('Location', encodeURI(alias ? alias(this.req) : String(url)))
}
