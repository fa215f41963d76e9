var encodeUrl = require('encodeurl')
var schemaAndHost = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:)?\/\/[^\\\/\?]+/

exports.location = function location (url) {
  var m = schemaAndHost.exec(url)
  var pos = m ? m[0].length + 1 : 0
  // only encode after the host so `\\` cannot become `%5C` in the authority
  var loc = url.slice(0, pos) + encodeUrl(url.slice(pos)).replace(/\\/g, '%5C')
  return this.set('Location', loc)
}
