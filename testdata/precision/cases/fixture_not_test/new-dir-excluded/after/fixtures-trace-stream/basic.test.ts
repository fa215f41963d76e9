import { test } from 'vitest'

test('stream', () => {})
