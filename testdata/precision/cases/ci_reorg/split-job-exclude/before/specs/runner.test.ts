import { test } from 'vitest'
test('runner', () => {})
