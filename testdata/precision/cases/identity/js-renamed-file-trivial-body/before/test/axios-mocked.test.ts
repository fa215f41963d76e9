import axios from 'axios'
import { expect, test, vi } from 'vitest'

vi.mock('axios')

test('can get actual axios', async () => {
  const actual = await vi.importActual<typeof axios>('axios')
  expect(vi.isMockFunction(actual.get)).toBe(false)
})
