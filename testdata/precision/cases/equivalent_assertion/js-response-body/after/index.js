module.exports = require('express')
