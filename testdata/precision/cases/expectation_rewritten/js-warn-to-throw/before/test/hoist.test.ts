import { expect, it, vi } from 'vitest'
import { hoist } from '../src/hoist'

it('shows an error when hoisted methods are used outside the top level scope', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const result = hoist('if (x) {\n  vi.mock("./a")\n}')
  expect(result).toMatchInlineSnapshot(`
    "if (x) {
    vi.mock("./a")
    }"
  `)
  expect(warn).toHaveBeenCalledWith('vi.mock is not at the top level')
})
