import { test } from 'vitest'
import { runInlineTests } from './utils'

test('printBasicPrototype', async () => {
  await runInlineTests({
    'basic.test.ts': `
      import { expect, test } from 'vitest'
      test('non default snapshot format', () => {
        expect({ foo: ['bar'] }).toMatchInlineSnapshot()
      })
    `,
  }, { update: 'all' })
})
