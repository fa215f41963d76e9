import { expect, it } from 'vitest'
import { hoist } from '../src/hoist'

it('shows an error when hoisted methods are used outside the top level scope', () => {
  expect(() => hoist('if (x) {\n  vi.mock("./a")\n}')).toThrowErrorMatchingInlineSnapshot(
    `[Error: vi.mock is not at the top level]`,
  )
})
