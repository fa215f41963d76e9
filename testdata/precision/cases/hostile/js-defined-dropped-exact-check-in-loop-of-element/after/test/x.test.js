const { list } = require('../lib')

test('list', () => {
  const items = list()
  for (const it of items) {
    expect(it.kind).toBe('file')
  }
})
