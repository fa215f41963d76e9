import { expect, test } from 'vitest'
import { runInlineTests } from './utils'

test('printBasicPrototype', async () => {
  const result = await runInlineTests({
    'basic.test.ts': `
      import { expect, test } from 'vitest'
      test('non default snapshot format', () => {
        expect({ foo: ['bar'] }).toMatchInlineSnapshot()
      })
    `,
  }, { update: 'all', snapshotFormat: { printBasicPrototype: true } })
  expect(result.stderr).toBe('')
  expect(result.errorTree()).toEqual({ 'basic.test.ts': { 'non default snapshot format': 'passed' } })
  expect(result.fs.readFile('basic.test.ts')).toContain('Object {')
})
