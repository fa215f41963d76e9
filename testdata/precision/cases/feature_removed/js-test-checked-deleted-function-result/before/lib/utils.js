'use strict'

exports.isAbsolute = function isAbsolute (path) {
  if (path[0] === '/') return true
  if (path[1] === ':' && (path[2] === '\\' || path[2] === '/')) return true
  if (path.substring(0, 2) === '\\\\') return true
  return false
}

exports.normalizeType = function normalizeType (type) {
  return ~type.indexOf('/') ? type : 'application/' + type
}
