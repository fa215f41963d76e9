import { expect, test } from 'vitest'
import { startServer } from './utils'

test('server-url http', async () => {
  const ctx = await startServer({ port: 51133 })
  const url = ctx.resolvedUrls?.local[0]
  expect(url).toBeDefined()
  expect(new URL(url!).port).toBe('51133')
})
