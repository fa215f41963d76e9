import { expect, test } from 'vitest'
import { runBrowserTests } from './utils'

test('prints source-mapped stack', async () => {
  const trees = await runBrowserTests()
  for (const [name, tree] of Object.entries(trees)) {
    if (name === 'webkit') {
      expect(tree).toMatchInlineSnapshot(`"index.js:2:13 basic.test.ts:5:3"`)
    }
    else {
      expect(tree).toMatchInlineSnapshot(`"index.js:2:9 basic.test.ts:5:3"`)
    }
  }
})
