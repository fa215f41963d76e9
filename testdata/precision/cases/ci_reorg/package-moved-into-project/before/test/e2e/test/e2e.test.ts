import { expect, test } from 'vitest'
test('e2e', () => { expect(1).toBe(1) })
