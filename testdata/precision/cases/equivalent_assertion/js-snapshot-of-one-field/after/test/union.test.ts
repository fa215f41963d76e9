import { expect, test } from 'vitest'
import * as z from '../src'

test('z.xor() - multiple matches fails', () => {
  const result = z.xor([z.string(), z.any()]).safeParse('hello')
  expect(result.success).toBe(false)
  if (!result.success) {
    expect(result.error.issues.length).toMatchInlineSnapshot(`1`)
  }
})
