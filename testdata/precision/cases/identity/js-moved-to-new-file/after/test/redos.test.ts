import { checkSync } from 'recheck'
import { expect, test } from 'vitest'
import { patterns } from '../src/regexes'

test('no built-in pattern is ReDoS-vulnerable', () => {
  const vulnerable: string[] = []
  for (const [name, re] of Object.entries(patterns)) {
    const result = checkSync(re.source, re.flags)
    if (result.status !== 'safe') vulnerable.push(name)
  }
  expect(vulnerable).toEqual([])
})
