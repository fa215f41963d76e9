import { test } from 'vitest'
test('basic', () => {})
