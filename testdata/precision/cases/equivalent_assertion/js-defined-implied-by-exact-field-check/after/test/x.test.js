const { get } = require('../lib')

test('get', () => {
  const res = get('/')
  expect(res.status).toBe(200)
})
