module.exports = { get: async (url, cfg) => { throw new Error('maxContentLength size of ' + cfg.maxContentLength + ' exceeded') } }
