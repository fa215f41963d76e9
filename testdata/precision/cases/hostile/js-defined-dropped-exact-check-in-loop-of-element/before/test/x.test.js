const { list } = require('../lib')

test('list', () => {
  const items = list()
  expect(items).toBeDefined()
  for (const it of items) {
    expect(it.kind).toBe('file')
  }
})
