var encodeUrl = require('encodeurl')

exports.location = function location (url) {
  return this.set('Location', encodeUrl(url))
}
