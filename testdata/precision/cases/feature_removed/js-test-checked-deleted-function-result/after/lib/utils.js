'use strict'

exports.normalizeType = function normalizeType (type) {
  return ~type.indexOf('/') ? type : 'application/' + type
}
