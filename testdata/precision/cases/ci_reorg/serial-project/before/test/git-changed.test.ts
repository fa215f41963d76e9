import { test } from 'vitest'
test('git changed', () => {})
