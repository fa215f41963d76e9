import { expect, test } from 'vitest'

test('unit', () => { expect(1 + 1).toBe(2) })
