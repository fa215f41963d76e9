import { expect, test } from 'vitest'
import { instances, runBrowserTests } from './utils'

test.for(instances)('mark location (%s)', async (browser) => {
  const { frame } = await runBrowserTests({ browser })
  if (browser === 'webkit') {
    expect(frame).toMatchInlineSnapshot(`"basic.test.ts:10:38"`)
  }
  else {
    expect(frame).toMatchInlineSnapshot(`"basic.test.ts:10:33"`)
  }
})
