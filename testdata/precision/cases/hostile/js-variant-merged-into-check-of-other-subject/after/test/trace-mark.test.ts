import { expect, test } from 'vitest'
import { instances, runBrowserTests } from './utils'

test.for(instances)('mark location (%s)', async (browser) => {
  const { frame, stderr } = await runBrowserTests({ browser })
  expect(stderr).toMatchInlineSnapshot(`""`)
})
