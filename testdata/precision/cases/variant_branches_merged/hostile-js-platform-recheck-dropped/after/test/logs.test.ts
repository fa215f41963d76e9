import { expect, test } from 'vitest'
import { mapColumn } from '../src/source-map'

const browsers = (process.env.BROWSERS ?? 'chromium').split(',')

test('logs have stack traces', () => {
  const stdout = mapColumn('log with a stack', 58)
  const stderr = mapColumn('error with a stack', 59)
  expect(stdout).toMatch('log with a stack\n ❯ test/logs.test.ts:58:10')
  expect(stderr).toMatch('error with a stack\n ❯ test/logs.test.ts:59:10')

})
