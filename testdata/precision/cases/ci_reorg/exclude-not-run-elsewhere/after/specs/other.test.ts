import { test } from 'vitest'
test('other', () => {})
