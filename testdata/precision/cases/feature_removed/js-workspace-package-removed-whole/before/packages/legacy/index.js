'use strict'

exports.pad = function pad (s, n) { return String(s).padStart(n, '0') }
