import { expect, test } from 'vitest'
import { instances, runBrowserTests } from './utils'

test.for(instances)('mark location (%s)', async (browser) => {
  const { frame } = await runBrowserTests({ browser })
  expect(frame).toMatchInlineSnapshot(`"basic.test.ts:10:34"`)
})
