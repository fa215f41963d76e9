import { expect, test } from 'vitest'
import { runBrowserTests } from './utils'

test('prints source-mapped stack', async () => {
  const trees = await runBrowserTests()
  for (const [name, tree] of Object.entries(trees)) {
    if (name === 'webkit') {
      if (process.env.ROLLDOWN) {
        expect(tree).toMatchInlineSnapshot(`"index.js:2:18 basic.test.ts:5:2"`)
      }
      else {
        expect(tree).toMatchInlineSnapshot(`"index.js:2:18 basic.test.ts:5:16"`)
      }
    }
    else {
      expect(tree).toMatchInlineSnapshot(`"index.js:2:8 basic.test.ts:5:2"`)
    }
  }
})
