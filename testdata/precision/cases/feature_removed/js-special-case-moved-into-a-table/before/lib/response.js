'use strict'

var res = module.exports = {}

/**
 * Set the location header to `url`.
 *
 * The given `url` can also be "back", which redirects
 * to the Referrer or Referer headers or "/".
 */
res.location = function location (url) {
  var loc

  // "back" is an alias for the referrer
  if (url === 'back') {
    loc = this.req.get('Referrer') || '/'
  } else {
    loc = String(url)
  }

  return this.set('Location', encodeURI(loc))
}
