import { test } from 'vitest'
import * as z from '../src/index'

test('safeExtend chaining preserves and overrides properties', () => {
  const schema1 = z.object({ email: z.string() })
  const schema2 = schema1.safeExtend({ email: schema1.shape.email.check(z.email()) })
  const schema3 = schema2.safeExtend({ email: schema2.shape.email.or(z.literal('')) })
  schema3.parse({ email: 'test@example.com' })
})
