import { test } from 'vitest'

test('trace', () => {})
