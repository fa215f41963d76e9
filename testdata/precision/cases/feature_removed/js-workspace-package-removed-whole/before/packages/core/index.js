'use strict'

exports.add = function add (a, b) { return a + b }
