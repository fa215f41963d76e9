import axios from 'axios'
import { expect, test, vi } from 'vitest'

vi.mock('axios')

test('can get actual axios', async () => {
  const ax = await vi.importActual<typeof axios>('axios')
  expect(vi.isMockFunction(ax.get)).toBe(false)
})
