import { test } from 'vitest'
import * as z from '../src/index'

test('safeExtend chaining preserves and overrides properties', () => {
  z.object({ email: z.string() }).parse({ email: 'test@example.com' })
})
