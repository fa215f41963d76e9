import { expect, test } from 'vitest'
import { runVitest } from './utils'

test('fails if the assertion is not awaited', async () => {
  const { errorTree } = await runVitest({ root: './fixtures/not-awaited' })
  expect(errorTree({ stackTrace: true })).toMatchInlineSnapshot(`
    {
      "base.test.js": {
        "single not awaited": [
          "Promise returned by \`expect(actual).resolves.toBe(expected)\` was not awaited.
        at base.test.js:5:33",
        ],
      },
    }
  `)
})
