import { expect, test } from 'vitest'
import { instances, runBrowserTests } from './utils'

test.for(instances)('mark location (%s)', async (browser) => {
  const { frame, stderr } = await runBrowserTests({ browser })
  switch (browser) {
    case 'webkit':
      expect(frame).toMatchInlineSnapshot(`"basic.test.ts:10:38"`)
    case 'chromium':
      expect(frame).toMatchInlineSnapshot(`"basic.test.ts:10:33"`)
  }
})
